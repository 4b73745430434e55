// wrangler.toml as the tools read it (wrangler's own reader), and the copies of it that they serve
// or connect through: the one `wrangler dev` serves, the data bindings marked remote for --remote,
// no secrets for the tools. A copy lives in a temporary folder, so its paths are made absolute.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { tempFolder } from "./temp-folder.ts";
import { wranglerApi } from "./wrangler-env.ts";
import { API_CONFIG } from "./workers.ts";

/** One section of wrangler.toml (the top level or an [env.NAME]), with the members the tools change. */
export type ConfigSection = Record<string, unknown> & {
  name?: string;
  main?: string;
  vars?: Record<string, unknown>;
  d1_databases?: {
    binding: string;
    database_name?: string;
    database_id?: string;
    migrations_dir?: string;
    remote?: boolean;
  }[];
  kv_namespaces?: { binding: string; id?: string; remote?: boolean }[];
  ratelimits?: { name?: string; simple?: { limit?: number } }[];
  assets?: { directory?: string };
  alias?: Record<string, string>;
  triggers?: { crons?: string[] };
};
export type Config = ConfigSection & { env?: Record<string, ConfigSection> };

/** The file as written: the top level, and each environment's own section under `env`. */
export function readConfig(path = API_CONFIG): Config {
  return wranglerApi().experimental_readRawConfig({ config: path }).rawConfig as Config;
}

/**
 * For the tools' copies, which serve D1 and KV and run none of the worker: given `[secrets]`,
 * wrangler reads secrets from process.env too and says so ("Using secrets defined in process.env"),
 * or warns of a missing ADMIN_TOKEN. Without it, it reads none.
 */
export function dropSecrets(section: ConfigSection): void {
  delete section.secrets;
}

/**
 * For the copy that `wrangler dev` serves: each required secret becomes an empty var, which the
 * env file that carries the secret overrides; wrangler then reads no secret from process.env and
 * logs no line for it. As vars they keep their place in the generated types (worker-configuration.d.ts),
 * which wrangler would otherwise call out of date at every start. An empty ADMIN_TOKEN opens nothing.
 */
export function requiredSecretsAsVars(section: ConfigSection): void {
  const required = (section.secrets as { required?: string[] } | undefined)?.required ?? [];
  delete section.secrets;
  if (required.length > 0)
    section.vars = { ...section.vars, ...Object.fromEntries(required.map((name) => [name, ""])) };
}

/**
 * Writes wrangler.toml, each of its sections changed by `change`, as JSON to `path`; returns `path`.
 * Wrangler resolves the other paths from the config's folder: `main`, the migrations, the assets,
 * and each [alias] target, which it resolves as a module from there (zod's locale: the copy's folder
 * has no node_modules), so the copy names the module file that wrangler would have found.
 */
export function writeConfigCopy(path: string, change: (section: ConfigSection) => void): string {
  const config = readConfig();
  const root = dirname(resolve(API_CONFIG));
  const fromRoot = createRequire(resolve(API_CONFIG));
  for (const section of [config, ...Object.values(config.env ?? {})]) {
    change(section);
    if (typeof section.main === "string") section.main = resolve(root, section.main);
    for (const db of section.d1_databases ?? []) {
      if (typeof db.migrations_dir === "string") db.migrations_dir = resolve(root, db.migrations_dir);
    }
    if (typeof section.assets?.directory === "string")
      section.assets.directory = resolve(root, section.assets.directory);
    if (section.alias) {
      section.alias = Object.fromEntries(
        Object.entries(section.alias).map(([from, to]) => [from, fromRoot.resolve(to)]),
      );
    }
  }
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/**
 * A copy of wrangler.toml changed by `change` (writeConfigCopy), `wrangler.json` in a temporary folder of
 * its own named for `purpose` (which may hold other files of its command): one a server or platform,
 * since wrangler reloads a config file that changes under it. It goes with folder.remove(), or with this process.
 */
export function configCopy(purpose: string, change: (section: ConfigSection) => void) {
  const folder = tempFolder(purpose);
  try {
    return { path: writeConfigCopy(join(folder.path, "wrangler.json"), change), folder };
  } catch (error) {
    folder.remove();
    throw error;
  }
}
