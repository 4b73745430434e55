// The local (or, with --remote, the account's) bindings for the command-line tools, through
// wrangler's getPlatformProxy: the same D1 and KV that `wrangler dev --persist-to $PERSIST_DIR` serves.
import { experimental_readRawConfig, getPlatformProxy } from "wrangler";
import { UsageError } from "./cli.ts";
import { whileLocked, withLockRetries } from "./local-retry.ts";

export const PERSIST_DIR = process.env.PERSIST_DIR || ".wrangler/state";
export const PORT = Number(process.env.PORT || 8787);
export const CONFIG_PATH = "wrangler.toml";

export interface Platform {
  env: Env;
  dispose: () => Promise<void>;
}

/**
 * Opens the bindings. `remote` acts on the Cloudflare account's resources (needs `wrangler login`
 * and real ids in wrangler.toml); `environment` picks a wrangler environment such as "live".
 */
export async function openPlatform(options: { remote?: boolean; environment?: string } = {}): Promise<Platform> {
  describeTarget(options); // refuses an unknown environment before anything is opened
  if (options.remote) {
    const { openRemotePlatform } = await import("./remote-platform.ts");
    return openRemotePlatform({ environment: options.environment });
  }
  // workerd fails to start while another process on the same PERSIST_DIR has its SQLite file locked.
  const proxy = await whileLocked(() =>
    getPlatformProxy<Env>({
      configPath: CONFIG_PATH,
      environment: options.environment,
      // wrangler's --persist-to DIR keeps its state under DIR/v3; getPlatformProxy takes that folder.
      persist: { path: `${PERSIST_DIR}/v3` },
      remoteBindings: false,
    }),
  );
  // Another process on the same PERSIST_DIR (the dev server, another command) may hold the state for a moment.
  return { env: withLockRetries(proxy.env), dispose: () => proxy.dispose() };
}

export interface Target {
  remote?: boolean;
  /** A wrangler environment such as "live"; none for the top-level (test-mode) one. */
  environment?: string;
}

/**
 * Which D1 database a command acts on, in words, e.g. "the account's D1 database order-lookup-live
 * (--env live)". Throws a UsageError for an environment that wrangler.toml does not have: wrangler
 * itself would warn and go on with the top-level, test-mode, resources.
 */
export function describeTarget({ remote = false, environment }: Target): string {
  const { rawConfig } = experimental_readRawConfig({ config: CONFIG_PATH });
  const environments = Object.keys(rawConfig.env ?? {});
  let section = rawConfig;
  if (environment !== undefined) {
    const named = rawConfig.env?.[environment];
    if (!named) {
      throw new UsageError(`--env ${environment}: ${CONFIG_PATH} has no such environment (it has: ${environments.join(", ") || "none"})`);
    }
    section = { ...rawConfig, ...named };
  }
  const database = section.d1_databases?.[0]?.database_name ?? "(none)";
  const where = remote ? `the account's D1 database ${database}` : `the local D1 database ${database} in ${PERSIST_DIR}`;
  return environment === undefined ? where : `${where} (--env ${environment})`;
}

/** The wrangler flags that point a wrangler command at the same local state. */
export function persistArgs(): string[] {
  return ["--persist-to", PERSIST_DIR];
}
