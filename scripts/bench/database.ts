// What a local D1 database takes on disk, for `npm run bench -- --scale`: its SQLite file in a state
// folder, checkpointed first (a WAL left by the importer's workerd would otherwise be counted apart),
// with the bytes of its largest tables and indexes (SQLite's dbstat). Only while no server has it open.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export interface DatabaseSize {
  /** The file's size, and the pages in use (the file less its free pages). */
  fileBytes: number;
  usedBytes: number;
  /** The largest tables and indexes, bytes each, largest first. */
  largest: { name: string; bytes: number }[];
}

/** The API's D1 file in a PERSIST_DIR (local D1 keeps each database as one SQLite file named by a hash). */
function databaseFile(persistDir: string): string {
  const dir = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.length}`);
  return join(dir, files[0]!);
}

export function databaseSize(persistDir: string): DatabaseSize {
  const file = databaseFile(persistDir);
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const one = (sql: string) => Object.values(db.prepare(sql).get() ?? {})[0] as number;
    const pageSize = one("PRAGMA page_size");
    const used = (one("PRAGMA page_count") - one("PRAGMA freelist_count")) * pageSize;
    const largest = db
      .prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8")
      .all() as { name: string; bytes: number }[];
    return { fileBytes: statSync(file).size, usedBytes: used, largest };
  } finally {
    db.close();
  }
}
