// Applies the D1 migrations (migrations/): locally through the bindings that a command has open,
// to the account's database with wrangler. docs/decisions.md says why not wrangler locally too.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openPlatform, type Platform, type Target } from "./local.ts";
import { run } from "./processes.ts";
import { wranglerApi } from "./wrangler-env.ts";

const MIGRATIONS_DIR = "migrations";

/** wrangler's own record of the migrations applied: `wrangler d1 migrations list --local` reads it too. */
const APPLIED_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/**
 * Applies every migration file not yet in d1_migrations, in order, each as one D1 batch with its
 * d1_migrations row: a migration is applied whole or not at all. Returns the names it applied.
 * Costs one read when nothing is pending.
 */
export async function applyPendingMigrations(db: D1Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const applied = await appliedMigrations(db);
  const pending = readdirSync(dir)
    .filter((file) => file.endsWith(".sql") && !applied.has(file))
    .sort();
  if (pending.length === 0) return [];
  const { unstable_splitSqlQuery: statementsOf } = wranglerApi();
  await db.prepare(APPLIED_TABLE).run();
  const record = db.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
  for (const name of pending) {
    const statements = statementsOf(readFileSync(join(dir, name), "utf8"));
    await db.batch([...statements.map((sql) => db.prepare(sql)), record.bind(name)]);
  }
  return pending;
}

async function appliedMigrations(db: D1Database): Promise<Set<string>> {
  try {
    const { results } = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
    return new Set(results.map((r) => r.name));
  } catch (error) {
    // No d1_migrations table: nothing was ever applied. Any other failure is the command's to report.
    if (error instanceof Error && /no such table/.test(error.message)) return new Set();
    throw error;
  }
}

/**
 * The local bindings with every migration applied, each applied one told to `log`. The account's
 * database (--remote) is opened as it is: `npm run db:migrate -- --remote` is the deliberate step for that.
 */
export async function openMigratedPlatform(target: Target, log?: (line: string) => void): Promise<Platform> {
  const platform = await openPlatform(target);
  if (target.remote) return platform;
  try {
    const applied = await applyPendingMigrations(platform.env.DB);
    log?.(applied.length ? applied.map((name) => `Applied ${name}`).join("\n") : "No migrations to apply.");
    await carryOverLegacyKeys(platform, log);
    return platform;
  } catch (error) {
    await platform.dispose();
    throw error;
  }
}

export interface MigrateOptions extends Target {
  /** Print nothing unless it fails (default: say what was applied). */
  quiet?: boolean;
  /**
   * Remote only: also carry the KV-only key records into D1 (default true). `npm run deploy` passes
   * false: it drives wrangler only as a command, which its test stands in for, while the carry-over
   * needs the account's bindings through the platform proxy (docs/keys.md, "Older keys").
   */
  carryOverKeys?: boolean;
}

export async function applyMigrations({ quiet = false, carryOverKeys = true, ...target }: MigrateOptions) {
  const log = quiet ? undefined : console.log;
  if (!target.remote) return (await openMigratedPlatform(target, log)).dispose();
  // Through npx like every other step of a deploy, so that all of a deploy's wrangler commands
  // resolve wrangler the same way. run() sets CI=true: wrangler applies without asking on a terminal.
  const env = target.environment ? ["--env", target.environment] : [];
  const args = ["wrangler", "d1", "migrations", "apply", "DB", "--remote", ...env];
  const { code, stdout, stderr } = await run("npx", args, {}, quiet ? "capture" : "terminal");
  const output = `${stdout}${stderr}`.trim();
  if (code !== 0)
    throw new Error(`applying the migrations failed (wrangler exited with ${code})${output ? `:\n${output}` : ""}`);
  if (!carryOverKeys) return;
  const platform = await openPlatform(target);
  await carryOverLegacyKeys(platform, log).finally(platform.dispose);
}

/**
 * Key records that only KV held, from before D1 held them, moved into D1: SQL cannot read KV, so this is
 * the migrations' own step (docs/keys.md); after the first run it costs one KV list.
 */
async function carryOverLegacyKeys(platform: Platform, log?: (line: string) => void): Promise<void> {
  const { KeyStore } = await import("../../src/keys/keys.store.ts");
  const count = await new KeyStore(platform.env.KEYS, platform.env.DB).carryOverLegacyKeys();
  if (count > 0) log?.(`Carried ${count} key record(s) from the KV-only layout into D1.`);
}
