// The local (or, with --remote, the account's) bindings for the command-line tools, through
// wrangler's getPlatformProxy: the same D1 and KV that `wrangler dev --persist-to $PERSIST_DIR` serves.
import { UsageError } from "./cli.ts";
import { configCopy, dropSecrets, readConfig } from "./config.ts";
import { whileLocked, withLockRetries } from "./local-retry.ts";
import { wranglerApi } from "./wrangler-env.ts";
import { API_CONFIG } from "./workers.ts";

export const PERSIST_DIR = process.env.PERSIST_DIR || ".wrangler/state";
export const PORT = Number(process.env.PORT || 8787);

export interface Platform {
  env: Env;
  dispose: () => Promise<void>;
}

export interface Target {
  remote?: boolean;
  /** A wrangler environment such as "live"; none for the top-level (test-mode) one. */
  environment?: string;
}

/**
 * Opens the bindings, on a copy of the configuration without its secrets (config.ts, dropSecrets) whose
 * temporary folder goes with them. `remote` acts on the Cloudflare account's resources (needs `wrangler
 * login` and real ids in wrangler.toml); `environment` picks a wrangler environment such as "live".
 */
export async function openPlatform(target: Target = {}): Promise<Platform> {
  describeTarget(target); // refuses an unknown environment before anything is opened
  const { remote = false, environment } = target;
  const copy = configCopy(remote ? "remote-platform" : "platform", (section) => {
    dropSecrets(section);
    // getPlatformProxy({ remoteBindings: true }) connects only the bindings marked `remote = true`, and
    // wrangler.toml marks none (so that `wrangler dev` stays local): given that file, it would silently
    // act on the LOCAL state. The copy marks every KV namespace and D1 database remote.
    if (!remote) return;
    for (const binding of [...(section.kv_namespaces ?? []), ...(section.d1_databases ?? [])]) binding.remote = true;
  });
  try {
    const { getPlatformProxy } = wranglerApi();
    // wrangler's --persist-to DIR keeps its state under DIR/v3; getPlatformProxy takes that folder.
    const persist = remote ? false : { path: `${PERSIST_DIR}/v3` };
    const open = () => getPlatformProxy<Env>({ configPath: copy.path, environment, remoteBindings: remote, persist });
    // Locally, another process on the same PERSIST_DIR (the dev server, another command) may hold the state
    // for a moment: workerd fails to start while it has the SQLite file locked, and a call fails (local-retry.ts).
    const proxy = remote ? await open() : await whileLocked(open);
    const env = remote ? proxy.env : withLockRetries(proxy.env);
    return { env, dispose: () => proxy.dispose().finally(copy.folder.remove) };
  } catch (err) {
    copy.folder.remove();
    throw err;
  }
}

/**
 * Which D1 database a command acts on, in words, e.g. "the account's D1 database order-lookup-live
 * (--env live)". Throws a UsageError for an environment that wrangler.toml does not have: wrangler
 * itself would warn and go on with the top-level, test-mode, resources.
 */
export function describeTarget({ remote = false, environment }: Target, config = readConfig()): string {
  let section = config;
  if (environment !== undefined) {
    const named = config.env?.[environment];
    if (!named) {
      const environments = Object.keys(config.env ?? {}).join(", ") || "none";
      throw new UsageError(`--env ${environment}: ${API_CONFIG} has no such environment (it has: ${environments})`);
    }
    section = { ...config, ...named };
  }
  const database = section.d1_databases?.[0]?.database_name ?? "(none)";
  const where = remote
    ? `the account's D1 database ${database}`
    : `the local D1 database ${database} in ${PERSIST_DIR}`;
  return environment === undefined ? where : `${where} (--env ${environment})`;
}
