// The local bindings with every migration applied: the key store's records live in D1, so the keys
// command needs its tables even on a fresh PERSIST_DIR. Checking costs one D1 read; wrangler's own
// `d1 migrations apply` (slow: it starts workerd) runs only when a migration is pending. The
// account's database (--remote) is never migrated from here: `npm run db:migrate -- --remote` is
// the deliberate step for that (docs/operations.md, Deploying).
import { readdirSync } from "node:fs";
import { openPlatform, type Platform } from "./local.ts";
import { applyMigrations } from "./migrate.ts";

const MIGRATIONS_DIR = "migrations";

export async function openMigratedPlatform(options: { remote?: boolean; environment?: string }): Promise<Platform> {
  const platform = await openPlatform(options);
  if (options.remote || !(await hasPendingMigrations(platform.env.DB))) return platform;
  // wrangler opens the same local state: the proxy lets go of it first.
  await platform.dispose();
  await applyMigrations({ environment: options.environment, quiet: true });
  return openPlatform(options);
}

/** Whether a migration file is not yet listed in wrangler's d1_migrations table (or there is none). */
async function hasPendingMigrations(db: D1Database): Promise<boolean> {
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql"));
  let applied: Set<string>;
  try {
    const { results } = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
    applied = new Set(results.map((r) => r.name));
  } catch (error) {
    // No d1_migrations table: nothing was ever applied. Any other failure is the command's to report.
    if (error instanceof Error && /no such table/.test(error.message)) return true;
    throw error;
  }
  return files.some((f) => !applied.has(f));
}
