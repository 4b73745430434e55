// Fresh local state for a node-side test: a copy of the folder that the global setup migrated once
// (./template-setup.ts), so that no test waits to migrate its own.
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { tempStateDir } from "../../scripts/lib/processes.ts";

/** A new PERSIST_DIR with every migration applied and nothing else; the caller removes it. */
export function migratedStateDir(prefix = "olk-e2e-"): string {
  const dir = tempStateDir(prefix);
  cpSync(inject("migratedState"), dir, { recursive: true });
  return dir;
}

/** The SQLite file of the local D1 database in a state folder (wrangler's --persist-to layout). */
function d1File(persistDir: string): string {
  const folder = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(folder).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (files.length !== 1)
    throw new Error(`expected one D1 database in ${folder}, found: ${files.join(", ") || "none"}`);
  return join(folder, files[0]!);
}

/**
 * Runs SQL on the local D1 of a state folder that no process has open (before its server starts):
 * on its SQLite file, as `wrangler d1 execute DB --local` would, with the foreign keys checked, but
 * without starting a wrangler and a workerd for it (about 4 s of CPU each time).
 */
export async function executeOnStoppedState(persistDir: string, sql: string): Promise<void> {
  const { DatabaseSync } = await sqlite();
  const db = new DatabaseSync(d1File(persistDir), { enableForeignKeyConstraints: true });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** The rows of one query on the local D1 of a state folder that no process has open (after its server stopped). */
export async function queryStoppedState(persistDir: string, sql: string): Promise<Record<string, unknown>[]> {
  const { DatabaseSync } = await sqlite();
  const db = new DatabaseSync(d1File(persistDir), { readOnly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

/** node:sqlite without its one-line "experimental" warning on the test's output. */
async function sqlite(): Promise<typeof import("node:sqlite")> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    if (!String(warning).includes("SQLite is an experimental feature")) emit.call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import("node:sqlite");
  } finally {
    process.emitWarning = emit;
  }
}
