// Before each worker test file: a fresh start, as if the file had a workerd of its own. Files share a
// workerd (isolate: false in vitest.config.ts; docs/testing.md), so whatever the previous file left
// is removed here: every table, view and trigger of D1 (then the migrations are applied again), every
// KV entry, and what the app's modules keep between requests (clearIsolateCaches). The modules are
// loaded once per workerd, not per file (about 0.5 s of CPU a file): a new cache kept at module
// level needs its line in clearIsolateCaches, or a file sees the previous file's entries.
import { env } from "cloudflare:workers";
import { clearIsolateCaches } from "./helpers/api-keys.ts";

const { applyD1Migrations } = await import("cloudflare:test");

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
    .map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`));
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

await emptyDatabase(env.DB);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Last: a cache fill that the previous file's last request left running after its answer
// (waitUntil) has had the time of the steps above to land, and is removed with the rest.
await Promise.all([emptyNamespace(env.KEYS), emptyNamespace(env.LOOKUP_CACHE)]);
clearIsolateCaches();
