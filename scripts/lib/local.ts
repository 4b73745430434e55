// The local (or, with --remote, the account's) bindings for the command-line tools, through
// wrangler's getPlatformProxy: the same D1 and KV that `wrangler dev --persist-to $PERSIST_DIR` serves.
import { getPlatformProxy } from "wrangler";

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
  if (options.remote) {
    const { openRemotePlatform } = await import("./remote-platform.ts");
    return openRemotePlatform({ environment: options.environment });
  }
  const proxy = await getPlatformProxy<Env>({
    configPath: CONFIG_PATH,
    environment: options.environment,
    // wrangler's --persist-to DIR keeps its state under DIR/v3; getPlatformProxy takes that folder.
    persist: { path: `${PERSIST_DIR}/v3` },
    remoteBindings: false,
  });
  return { env: proxy.env, dispose: () => proxy.dispose() };
}

/** Flags common to the tools: --remote and --env NAME. */
export function platformFlags(argv: string[]): { remote: boolean; environment?: string } {
  const envIndex = argv.indexOf("--env");
  return { remote: argv.includes("--remote"), environment: envIndex >= 0 ? argv[envIndex + 1] : undefined };
}

/** The wrangler flags that point a wrangler command at the same local state. */
export function persistArgs(): string[] {
  return ["--persist-to", PERSIST_DIR];
}
