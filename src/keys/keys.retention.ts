// Key data retention (docs/specification.md sections 2 and 7), run daily by src/scheduled.ts: usage and audit
// past their days in one D1 batch, then the keys dead for 90 days with their KV copies and usage, in chunks.
import { AUDIT_RETENTION_DAYS } from "./keys.audit.ts";
import type { KeyDatabase } from "./keys.record.ts";
import { HOUR_MS, hourOf, USAGE_RETENTION_DAYS } from "./keys.usage-read.ts";

const DAY_MS = 24 * HOUR_MS;

export interface RetentionResult {
  usage_rows_deleted: number;
  audit_rows_deleted: number;
}

export async function deleteExpiredKeyData(db: KeyDatabase, now: Date): Promise<RetentionResult> {
  const oldestHourKept = hourOf(now.getTime()) - USAGE_RETENTION_DAYS * 24 + 1;
  const auditBefore = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  const [usage, audit] = await db.batch([
    db.prepare("DELETE FROM key_usage WHERE hour < ?1").bind(oldestHourKept),
    db.prepare("DELETE FROM key_audit WHERE at < ?1").bind(auditBefore),
  ]);
  return { usage_rows_deleted: usage?.meta.changes ?? 0, audit_rows_deleted: audit?.meta.changes ?? 0 };
}

/** A key revoked, expired or replaced this long ago goes, with its KV copy and usage (its audit stays). */
export const DEAD_KEY_RETENTION_DAYS = 90;
/** Keys per chunk (each a KV delete), and chunks per run: one run stays well inside a Worker's subrequests. */
export const DEAD_KEYS_PER_CHUNK = 100;
export const DEAD_KEY_CHUNKS_PER_RUN = 5;

/**
 * Keys revoked, expired or replaced (a replaced key expires when its grace ends) more than 90 days before `now`:
 * each chunk deletes the KV copies first, then in one D1 batch the usage rows and the records, so that a run cut
 * short leaves at worst records whose copies are gone (which authenticate no better) for the next run.
 */
export async function deleteDeadKeys(db: KeyDatabase, kv: KVNamespace, now: Date): Promise<{ keys_deleted: number }> {
  const before = new Date(now.getTime() - DEAD_KEY_RETENTION_DAYS * DAY_MS).toISOString();
  const dead = "(revoked_at < ?1 OR expires_at < ?1)";
  let deleted = 0;
  for (let chunk = 0; chunk < DEAD_KEY_CHUNKS_PER_RUN; chunk++) {
    const { results } = await db
      .prepare(
        `SELECT id, hash FROM api_keys WHERE revoked_at < ?1 UNION SELECT id, hash FROM api_keys WHERE expires_at < ?1 ` +
          "ORDER BY id LIMIT ?2",
      )
      .bind(before, DEAD_KEYS_PER_CHUNK)
      .all<{ id: string; hash: string }>();
    if (results.length === 0) break;
    await Promise.all(results.map((k) => kv.delete(`hash:${k.hash}`)));
    const ids = JSON.stringify(results.map((k) => k.id));
    const [, keys] = await db.batch([
      db.prepare("DELETE FROM key_usage WHERE key_id IN (SELECT value FROM json_each(?1))").bind(ids),
      // RETURNING, not meta.changes: D1 counts the changes of migration 0023's triggers with the statement's.
      db
        .prepare(`DELETE FROM api_keys WHERE id IN (SELECT value FROM json_each(?2)) AND ${dead} RETURNING id`)
        .bind(before, ids),
    ]);
    deleted += keys?.results.length ?? 0;
    if (results.length < DEAD_KEYS_PER_CHUNK) break;
  }
  return { keys_deleted: deleted };
}
