// Before each worker test file: a fresh start, as if the file had a workerd of its own. Files share a
// workerd (isolate: false in vitest.config.ts; docs/testing.md), so whatever the previous file left
// is removed here: D1 back to its migrated state (from a snapshot, or dropped and migrated again), every
// KV entry, and what the app's modules keep between requests (clearIsolateCaches). The modules are
// loaded once per workerd, not per file (about 0.5 s of CPU a file): a new cache kept at module
// level needs its line in clearIsolateCaches, or a file sees the previous file's entries.
import { env } from "cloudflare:workers";
import { clearIsolateCaches } from "./helpers/api-keys.ts";

const { applyD1Migrations } = await import("cloudflare:test");

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Drops every table, view and trigger (D1's own `_cf_` tables and SQLite's aside), in one batch. */
async function emptyDatabase(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all<{ type: "trigger" | "view" | "table"; name: string }>();
  if (results.length === 0) return;
  const order = { trigger: 0, view: 1, table: 2 };
  const drops = results
    .sort((a, b) => order[a.type] - order[b.type])
    .map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS ${quote(name)}`));
  // Tables that refer to each other go in any order: the foreign keys are checked at the commit.
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = on"), ...drops]);
}

async function emptyNamespace(kv: KVNamespace): Promise<void> {
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown> = await kv.list({ cursor });
    await Promise.all(page.keys.map((key) => kv.delete(key.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

/** The migrated database as the first file of this workerd saw it: its schema, and the rows the migrations wrote. */
interface Migrated {
  schema: string;
  triggers: { name: string; sql: string }[];
  rows: { table: string; rows: Record<string, unknown>[] }[];
}
const SCHEMA = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' ORDER BY type, name";
async function schemaOf(db: D1Database) {
  return (await db.prepare(SCHEMA).all<{ type: string; name: string; sql: string | null }>()).results;
}

async function snapshot(db: D1Database): Promise<Migrated> {
  const schema = await schemaOf(db);
  const tables = schema.filter((o) => o.type === "table").map((o) => o.name);
  const read = await db.batch(tables.map((t) => db.prepare(`SELECT * FROM ${quote(t)}`)));
  return {
    schema: JSON.stringify(schema),
    triggers: schema.filter((o) => o.type === "trigger").map((o) => ({ name: o.name, sql: o.sql! })),
    rows: tables.map((table, i) => ({ table, rows: read[i]!.results as Record<string, unknown>[] })),
  };
}

/**
 * Back to the migrated database in one batch, when the schema is the migrated one: triggers off while
 * the rows go and the migrations' rows (counters, sequences, the migrations' own list) come back.
 * Applying the migrations again cost about 0.2 s a file.
 */
async function restore(db: D1Database, migrated: Migrated): Promise<boolean> {
  if (JSON.stringify(await schemaOf(db)) !== migrated.schema) return false;
  const insert = (table: string, row: Record<string, unknown>) => {
    const columns = Object.keys(row);
    const marks = columns.map(() => "?").join(", ");
    return db
      .prepare(`INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES (${marks})`)
      .bind(...columns.map((c) => row[c]));
  };
  const sequence = migrated.rows.find((t) => t.table === "sqlite_sequence");
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...migrated.triggers.map((t) => db.prepare(`DROP TRIGGER ${quote(t.name)}`)),
    ...migrated.rows.map(({ table }) => db.prepare(`DELETE FROM ${quote(table)}`)),
    ...migrated.rows.filter((t) => t !== sequence).flatMap(({ table, rows }) => rows.map((row) => insert(table, row))),
    // Last: the inserts above numbered their own tables there, and an entry twice costs a row read each insert.
    ...(sequence
      ? [db.prepare("DELETE FROM sqlite_sequence"), ...sequence.rows.map((row) => insert("sqlite_sequence", row))]
      : []),
    ...migrated.triggers.map((t) => db.prepare(t.sql)),
  ]);
  return true;
}

// One snapshot per workerd: the files it runs share its global scope.
const shared = globalThis as { migratedSnapshot?: Migrated };
if (!shared.migratedSnapshot || !(await restore(env.DB, shared.migratedSnapshot))) {
  await emptyDatabase(env.DB);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  shared.migratedSnapshot ??= await snapshot(env.DB);
}
// Last: a cache fill that the previous file's last request left running after its answer
// (waitUntil) has had the time of the steps above to land, and is removed with the rest.
await Promise.all([emptyNamespace(env.KEYS), emptyNamespace(env.LOOKUP_CACHE)]);
clearIsolateCaches();
