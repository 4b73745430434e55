// The Cloudflare account's bindings for the command-line tools (--remote).
//
// getPlatformProxy({ remoteBindings: true }) connects only the bindings marked `remote = true` in
// the configuration, and wrangler.toml marks none (so that `wrangler dev` stays local): given that
// file it would silently act on the LOCAL state. So this writes a copy of the configuration with
// every KV namespace and D1 database marked remote, and opens the bindings through that copy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { experimental_readRawConfig, getPlatformProxy } from "wrangler";
import { CONFIG_PATH, type Platform } from "./local.ts";

type RawSection = Record<string, unknown> & {
  kv_namespaces?: Record<string, unknown>[];
  d1_databases?: Record<string, unknown>[];
};

/** The configuration with its data bindings marked remote, and its paths made absolute. */
export function remoteConfig(raw: Record<string, unknown>, root = process.cwd()): Record<string, unknown> {
  const config = structuredClone(raw) as RawSection & { env?: Record<string, RawSection> };
  const mark = (section: RawSection) => {
    for (const kv of section.kv_namespaces ?? []) kv.remote = true;
    for (const db of section.d1_databases ?? []) {
      db.remote = true;
      if (typeof db.migrations_dir === "string") db.migrations_dir = resolve(root, db.migrations_dir);
    }
  };
  mark(config);
  for (const section of Object.values(config.env ?? {})) mark(section);
  if (typeof config.main === "string") config.main = resolve(root, config.main);
  return config;
}

/** Opens the account's bindings (needs `wrangler login` or CLOUDFLARE_API_TOKEN, and real ids in wrangler.toml). */
export async function openRemotePlatform(options: { environment?: string } = {}): Promise<Platform> {
  const { rawConfig } = experimental_readRawConfig({ config: CONFIG_PATH });
  mkdirSync(".wrangler", { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), ".wrangler", "remote-config-"));
  const configPath = join(dir, "wrangler.json");
  writeFileSync(configPath, JSON.stringify(remoteConfig(rawConfig as Record<string, unknown>)));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const proxy = await getPlatformProxy<Env>({
      configPath,
      environment: options.environment,
      remoteBindings: true,
      persist: false,
    });
    return {
      env: proxy.env,
      dispose: async () => {
        await proxy.dispose();
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}
