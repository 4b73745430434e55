// The local (or, with --remote, the account's) bindings for the command-line tools, through
// wrangler's getPlatformProxy: the same D1 and KV that `wrangler dev --persist-to $PERSIST_DIR` serves.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "./cli.ts";
import { readConfig, writeConfigCopy } from "./config.ts";
import { whileLocked, withLockRetries } from "./local-retry.ts";
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
 * Opens the bindings. `remote` acts on the Cloudflare account's resources (needs `wrangler login`
 * and real ids in wrangler.toml); `environment` picks a wrangler environment such as "live".
 */
export async function openPlatform(target: Target = {}): Promise<Platform> {
  const config = readConfig();
  describeTarget(target, config); // refuses an unknown environment before anything is opened
  // wrangler warns of each secret that wrangler.toml requires and this process's environment lacks
  // (ADMIN_TOKEN). The proxy serves D1 and KV to the tools and runs none of the worker, which alone
  // reads it: an empty value stands in (an operator's own is left as it is; `npm start` hands
  // wrangler dev the real one in a file, which an empty variable does not override).
  for (const name of (config.secrets as { required?: string[] } | undefined)?.required ?? []) process.env[name] ??= "";
  if (target.remote) return openRemote(target.environment);
  // Loaded only here: wrangler's module alone is about 300 MB of a Node process, which a command
  // should not hold while it runs another wrangler (the import's migrations).
  const { getPlatformProxy } = await import("wrangler");
  // workerd fails to start while another process on the same PERSIST_DIR has its SQLite file locked.
  const proxy = await whileLocked(() =>
    getPlatformProxy<Env>({
      configPath: API_CONFIG,
      environment: target.environment,
      // wrangler's --persist-to DIR keeps its state under DIR/v3; getPlatformProxy takes that folder.
      persist: { path: `${PERSIST_DIR}/v3` },
      remoteBindings: false,
    }),
  );
  // Another process on the same PERSIST_DIR (the dev server, another command) may hold the state for a moment.
  return { env: withLockRetries(proxy.env), dispose: () => proxy.dispose() };
}

/**
 * The account's bindings. getPlatformProxy({ remoteBindings: true }) connects only the bindings
 * marked `remote = true`, and wrangler.toml marks none (so that `wrangler dev` stays local): given
 * that file it would silently act on the LOCAL state. So it opens them through a copy of the
 * configuration with every KV namespace and D1 database marked remote.
 */
async function openRemote(environment: string | undefined): Promise<Platform> {
  mkdirSync(".wrangler", { recursive: true });
  const dir = mkdtempSync(resolve(".wrangler", "remote-config-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const configPath = writeConfigCopy(join(dir, "wrangler.json"), (section) => {
      for (const binding of [...(section.kv_namespaces ?? []), ...(section.d1_databases ?? [])]) binding.remote = true;
    });
    const { getPlatformProxy } = await import("wrangler");
    const proxy = await getPlatformProxy<Env>({ configPath, environment, remoteBindings: true, persist: false });
    return { env: proxy.env, dispose: () => proxy.dispose().finally(cleanup) };
  } catch (err) {
    cleanup();
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

/** The wrangler flags that point a wrangler command at the same local state. */
export function persistArgs(): string[] {
  return ["--persist-to", PERSIST_DIR];
}
