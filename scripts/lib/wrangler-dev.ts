// Runs `wrangler dev` for `npm start` and `npm run dev`: on 127.0.0.1:$PORT, on $PERSIST_DIR, with
// the administrator token passed through a private env file (never on the command line, where `ps`
// shows it) and the rate limit applied; forwards SIGINT/SIGTERM/SIGHUP and exits as wrangler does.
// A process manager signals the process it started: the npm scripts `exec` node (package.json), so
// that this process is the one that gets the signal (docs/operations.md, "Stopping").
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { join, resolve } from "node:path";
import { resolveAdminToken } from "./admin-token.ts";
import { configCopy, type ConfigSection, readConfig, requiredSecretsAsVars } from "./config.ts";
import { PERSIST_DIR, PORT } from "./local.ts";
import { describeScheduledJobs, scheduledJobsFromEnv, startScheduledJobs } from "./scheduled-jobs.ts";
import { descendants, killAll, killTree, stillAlive } from "./processes.ts";
import { devConfigArgs, WRANGLER_BIN, wranglerEnv } from "./wrangler-env.ts";
import { API_CONFIG } from "./workers.ts";

const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/**
 * How long wrangler gets to stop its workerd processes after a forwarded signal before its whole
 * tree is killed: within the 10 s in which a stop must be complete. Wrangler takes about a second;
 * a write that workerd acknowledged is already committed to the local D1, so a kill loses none.
 */
const STOP_GRACE_MS = 7_000;

/** RATE_LIMIT_PER_MINUTE as a number (default 600; 0 turns limiting off). Throws on anything else. */
function rateLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RATE_LIMIT_PER_MINUTE;
  if (raw === undefined || raw === "") return 600;
  if (!/^\d+$/.test(raw) || Number(raw) > 1_000_000_000) {
    throw new Error(`RATE_LIMIT_PER_MINUTE must be a whole number (0 turns limiting off), got "${raw}"`);
  }
  return Number(raw);
}

/** The binding that RATE_LIMIT_PER_MINUTE configures. */
const PER_KEY_LIMITER = "RATE_LIMITER";

/**
 * The wrangler config to serve with: a copy in a temporary folder (config.ts, configCopy), its
 * required secrets as vars (requiredSecretsAsVars). The Rate Limiting binding takes its limit from
 * the config file, not from a var, so a limit other than the file's is written into the copy. 0
 * changes no limit: the middleware skips the binding.
 */
function configForRateLimit(limit: number) {
  const config = readConfig();
  const perKey = (section: ConfigSection) => (section.ratelimits ?? []).filter((r) => r.name === PER_KEY_LIMITER);
  const limits = [config, ...Object.values(config.env ?? {})].flatMap(perKey);
  if (limits.length === 0) throw new Error(`${API_CONFIG} has no [[ratelimits]] to apply RATE_LIMIT_PER_MINUTE to`);
  const keep = limit === 0 || limits.every((r) => r.simple?.limit === limit);
  return configCopy("dev", (section) => {
    requiredSecretsAsVars(section);
    if (keep) return;
    for (const r of perKey(section)) r.simple = { ...r.simple, limit };
    if (section.vars && typeof section.vars === "object") section.vars.RATE_LIMIT_PER_MINUTE = String(limit);
  });
}

/** The settings of the environment, checked first, so that a bad one fails before any slow step. */
export function serveSettings() {
  return { rateLimit: rateLimitFromEnv(), admin: resolveAdminToken(PERSIST_DIR), jobs: scheduledJobsFromEnv() };
}
type ServeSettings = ReturnType<typeof serveSettings>;

/** What `npm start` shows of its demo state: the key, a phone number with orders, the link into the app. */
type Demo = { key: string; phone: string | null; appLink: string | null } | null;

/**
 * Prints the banner (with the demo key and an example phone number, when `npm start` has them) and
 * serves until wrangler exits, then exits this process with wrangler's status.
 */
export function serve({ rateLimit, admin, jobs }: ServeSettings, title: string, demo: Demo): void {
  const env = wranglerEnv(); // first: it may refuse a setting, before any file is written
  console.log(banner({ rateLimit, admin, jobs }, title, demo));
  const crons = readConfig().triggers?.crons ?? [];
  console.log(`Scheduled jobs: ${describeScheduledJobs(jobs, crons)}.`);
  // The copy's folder also holds the env file that carries the admin token to wrangler: both go
  // when this process exits, however it exits but SIGKILL (temp-folder.ts).
  const config = configForRateLimit(rateLimit);
  const removeFiles = config.folder.remove;
  const envFiles: string[] = [];
  // Passing --env-file makes wrangler skip .dev.vars, so an operator's .dev.vars is passed on first.
  if (existsSync(".dev.vars")) envFiles.push("--env-file", resolve(".dev.vars"));
  envFiles.push("--env-file", writeSecretsFile(config.folder.path, admin.token));

  const args = [
    WRANGLER_BIN,
    "dev",
    ...devConfigArgs(config.path),
    "--ip",
    "127.0.0.1",
    "--port",
    String(PORT),
    "--persist-to",
    resolve(PERSIST_DIR),
    // The crons do not run under wrangler dev by themselves: this process runs them through
    // GET /__scheduled?cron=… (scheduled-jobs.ts), which a developer may call too (docs/operations.md).
    "--test-scheduled",
    "--var",
    `RATE_LIMIT_PER_MINUTE:${rateLimit}`,
    // The usage flush interval when the operator sets it (docs/operations.md); else wrangler.toml's.
    ...(process.env.USAGE_FLUSH_SECONDS ? ["--var", `USAGE_FLUSH_SECONDS:${process.env.USAGE_FLUSH_SECONDS}`] : []),
    ...envFiles,
  ];
  const child = spawn(process.execPath, args, { stdio: "inherit", env });
  const stopJobs = startScheduledJobs({ origin: `http://127.0.0.1:${PORT}`, crons, jobs });

  let fallback: NodeJS.Timeout | undefined;
  /** wrangler's processes when the stop began: whichever outlives wrangler is killed with it. */
  let tree: number[] = [];
  const forward = (signal: NodeJS.Signals) => {
    stopJobs();
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
  child.on("error", (error) => {
    removeFiles();
    console.error(`Could not start wrangler: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    stopJobs();
    // What wrangler left behind (nothing, when it stopped in order) goes with it.
    killAll(stillAlive(tree), "SIGKILL");
    removeFiles();
    process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
  });
}

/** A dotenv file readable by this user only, in `folder` (private: mkdtemp's); returns its path. */
function writeSecretsFile(folder: string, adminToken: string): string {
  const path = join(folder, "secrets.env");
  // Single quotes: dotenv takes the value literally (resolveAdminToken rules out quotes and $).
  writeFileSync(path, `ADMIN_TOKEN='${adminToken}'\n`, { mode: 0o600 });
  return path;
}

/** The short block printed before wrangler's own output. */
function banner({ rateLimit, admin }: ServeSettings, title: string, demo: Demo): string {
  const base = `http://127.0.0.1:${PORT}`;
  const key = demo?.key ?? "<key>";
  const tokenNote = {
    env: "(from ADMIN_TOKEN)",
    stored: `(kept in ${PERSIST_DIR}/admin-token)`,
    generated: `(new; kept in ${PERSIST_DIR}/admin-token)`,
  }[admin.source];
  const lines = [title, "", `  Base URL     ${base}   (the API is at ${base}/api/... and at the root)`];
  if (demo) {
    lines.push(
      `  Demo key     ${demo.key}`,
      "               (test mode; a new one at each start, the previous one keeps working for 24 hours)",
    );
  } else lines.push("  API key      make one with: npm run keys -- create --mode test --name NAME");
  lines.push(`  Admin token  ${admin.token}   ${tokenNote}`, `  Dashboard    ${base}/dashboard`);
  if (demo?.appLink) {
    lines.push(
      `  Field app    ${demo.appLink}`,
      "               (opens the app at /app/ enrolled as the demo sales agent; the link works once)",
    );
  } else
    lines.push(`  Field app    ${base}/app/   (enroll with a code: npm run keys -- enroll --agent ID --mode test)`);
  const limit = rateLimit === 0 ? "off (RATE_LIMIT_PER_MINUTE=0)" : `${rateLimit} requests a minute per key`;
  lines.push(`  Rate limit   ${limit}`, `  State        ${PERSIST_DIR}`, "", "  Try:");
  lines.push(`    curl -H "Authorization: Bearer ${key}" ${base}/api/customers`);
  if (demo?.phone)
    lines.push(`    curl -H "Authorization: Bearer ${key}" "${base}/api/orders?phone_number=${demo.phone}"`);
  const rule = "-".repeat(78);
  return `\n${rule}\n${lines.join("\n")}\n${rule}\n`;
}
