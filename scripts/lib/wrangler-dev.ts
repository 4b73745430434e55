// Runs `wrangler dev` for `npm start` and `npm run dev`: on 127.0.0.1:$PORT, on $PERSIST_DIR, with
// the administrator token passed through a private env file (never on the command line, where `ps`
// shows it) and the rate limit applied; forwards SIGINT/SIGTERM/SIGHUP and exits as wrangler does.
// A process manager signals the process it started: the npm scripts `exec` node (package.json), so
// that this process is the one that gets the signal (docs/operations.md, "Stopping").
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { constants, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { experimental_readRawConfig } from "wrangler";
import { CONFIG_PATH } from "./local.ts";
import { descendants, killAll, killTree, stillAlive } from "./processes.ts";
import { devConfigArgs, wranglerEnv } from "./wrangler-env.ts";

export const DEFAULT_RATE_LIMIT = 600;
/** Where a config copy with another rate limit goes (under the gitignored .wrangler folder). */
export const GENERATED_CONFIG = ".wrangler/generated/wrangler.json";
const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/**
 * How long wrangler gets to stop its workerd processes after a forwarded signal before its whole
 * tree is killed: within the 10 s in which a stop must be complete. Wrangler takes about a second;
 * a write that workerd acknowledged is already committed to the local D1, so a kill loses none.
 */
const STOP_GRACE_MS = 7_000;

/** RATE_LIMIT_PER_MINUTE as a number (default 600; 0 turns limiting off). Throws on anything else. */
export function rateLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RATE_LIMIT_PER_MINUTE;
  if (raw === undefined || raw === "") return DEFAULT_RATE_LIMIT;
  if (!/^\d+$/.test(raw) || Number(raw) > 1_000_000_000) {
    throw new Error(`RATE_LIMIT_PER_MINUTE must be a whole number (0 turns limiting off), got "${raw}"`);
  }
  return Number(raw);
}

/** The binding that RATE_LIMIT_PER_MINUTE configures. */
const PER_KEY_LIMITER = "RATE_LIMITER";

type RawSection = Record<string, unknown> & {
  main?: string;
  ratelimits?: { name?: string; simple?: { limit?: number } }[];
  d1_databases?: { migrations_dir?: string }[];
  assets?: { directory?: string };
};

/**
 * The wrangler config to serve with. The Rate Limiting binding takes its limit from the config
 * file, not from a var, so a limit other than the file's is served from a generated copy (paths
 * made absolute, since the copy lives elsewhere). 0 needs no copy: the middleware skips the binding.
 */
export function configForRateLimit(limit: number): string {
  const { rawConfig } = experimental_readRawConfig({ config: CONFIG_PATH });
  const config = structuredClone(rawConfig) as RawSection & { env?: Record<string, RawSection> };
  const sections = [config, ...Object.values(config.env ?? {})];
  const perKey = (section: RawSection) => (section.ratelimits ?? []).filter((r) => r.name === PER_KEY_LIMITER);
  const limits = sections.flatMap(perKey);
  if (limits.length === 0) throw new Error(`${CONFIG_PATH} has no [[ratelimits]] to apply RATE_LIMIT_PER_MINUTE to`);
  if (limit === 0 || limits.every((r) => r.simple?.limit === limit)) return CONFIG_PATH;

  const root = dirname(resolve(CONFIG_PATH));
  for (const section of sections) {
    for (const r of perKey(section)) r.simple = { ...r.simple, limit };
    if (section.vars && typeof section.vars === "object") {
      (section.vars as Record<string, unknown>).RATE_LIMIT_PER_MINUTE = String(limit);
    }
    if (typeof section.main === "string") section.main = resolve(root, section.main);
    for (const db of section.d1_databases ?? []) {
      if (typeof db.migrations_dir === "string") db.migrations_dir = resolve(root, db.migrations_dir);
    }
    if (typeof section.assets?.directory === "string") section.assets.directory = resolve(root, section.assets.directory);
  }
  mkdirSync(dirname(GENERATED_CONFIG), { recursive: true });
  writeFileSync(GENERATED_CONFIG, `${JSON.stringify(config, null, 2)}\n`);
  return GENERATED_CONFIG;
}

export interface DevServerOptions {
  port: number;
  persistDir: string;
  adminToken: string;
  rateLimit: number;
}

/** Serves until wrangler exits, then exits this process with wrangler's status. */
export function serveWithWrangler(options: DevServerOptions): void {
  const env = wranglerEnv(); // first: it may refuse a setting, before any file is written
  const config = configForRateLimit(options.rateLimit);
  const secrets = writeSecretsFile(options.adminToken);
  const envFiles: string[] = [];
  // Passing --env-file makes wrangler skip .dev.vars, so an operator's .dev.vars is passed on first.
  const devVars = join(dirname(resolve(CONFIG_PATH)), ".dev.vars");
  if (existsSync(devVars)) envFiles.push("--env-file", devVars);
  envFiles.push("--env-file", secrets.path);

  const wranglerBin = join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");
  const args = [
    wranglerBin, "dev",
    ...devConfigArgs(config),
    "--ip", "127.0.0.1",
    "--port", String(options.port),
    "--persist-to", resolve(options.persistDir),
    "--var", `RATE_LIMIT_PER_MINUTE:${options.rateLimit}`,
    // The usage flush interval, when set ("off" for the benchmark's comparison); else wrangler.toml's.
    ...(process.env.USAGE_FLUSH_SECONDS ? ["--var", `USAGE_FLUSH_SECONDS:${process.env.USAGE_FLUSH_SECONDS}`] : []),
    ...envFiles,
  ];
  const child = spawn(process.execPath, args, { stdio: "inherit", env });

  let fallback: NodeJS.Timeout | undefined;
  /** wrangler's processes when the stop began: whichever outlives wrangler is killed with it. */
  let tree: number[] = [];
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    tree = [...new Set([...tree, ...descendants(child.pid)])];
    child.kill(signal);
    fallback ??= setTimeout(() => {
      if (child.pid) killTree(child.pid, "SIGKILL");
    }, STOP_GRACE_MS);
  };
  for (const signal of FORWARDED_SIGNALS) {
    // Importing wrangler's API (getPlatformProxy, the config reader) installed handlers that exit at
    // once on SIGINT/SIGTERM, which would orphan the server: this process now exits when wrangler does.
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, forward);
  }
  // Last resort for the secrets file if this process dies another way (an exception).
  process.on("exit", secrets.remove);
  child.on("error", (error) => {
    secrets.remove();
    console.error(`Could not start wrangler: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    // What wrangler left behind (nothing, when it stopped in order) goes with it.
    killAll(stillAlive(tree), "SIGKILL");
    secrets.remove();
    process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
  });
}

/** A dotenv file readable by this user only, in a private temp folder, removed when we exit. */
function writeSecretsFile(adminToken: string): { path: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), "order-lookup-dev-"));
  const path = join(folder, "secrets.env");
  // Single quotes: dotenv takes the value literally (resolveAdminToken rules out quotes and $).
  writeFileSync(path, `ADMIN_TOKEN='${adminToken}'\n`, { mode: 0o600 });
  let removed = false;
  return {
    path,
    remove: () => {
      if (removed) return;
      removed = true;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
