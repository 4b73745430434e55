// Key usage, retention and the key list page. SQL text: upserts, json_each id lists, filters composed per page.
import type { KeyDatabase } from "./keys.queries.ts";
import { READ_COLUMNS } from "./keys.queries.ts";

export const usageQueries = {
  upsert: (db: KeyDatabase) =>
    db.prepare(
      "INSERT INTO key_usage (key_id, hour, requests) VALUES (?1, ?2, ?3) " +
        "ON CONFLICT(key_id, hour) DO UPDATE SET requests = requests + excluded.requests",
    ),
  touch: (db: KeyDatabase) =>
    db.prepare("UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?1)"),
  late: (db: KeyDatabase) =>
    db.prepare("UPDATE api_keys SET old_key_uses_after_successor = old_key_uses_after_successor + ?1 WHERE id = ?2"),
  /** Per key and day from hour ?1 to ?4, with the sums since ?2 (24 h) and ?3 (7 days); only `ids` when given. */
  days: (db: KeyDatabase, hours: [number, number, number, number], ids: readonly string[] | null) =>
    db
      .prepare(
        "SELECT key_id, hour / 24 AS day, sum(requests) AS n, " +
          "sum(CASE WHEN hour >= ?2 THEN requests ELSE 0 END) AS n24, sum(CASE WHEN hour >= ?3 THEN requests ELSE 0 END) AS n7 " +
          `FROM key_usage WHERE hour >= ?1 AND hour <= ?4 ${ids === null ? "" : "AND key_id IN (SELECT value FROM json_each(?5)) "}GROUP BY key_id, day`,
      )
      .bind(...hours, ...(ids === null ? [] : [JSON.stringify(ids)])),
  deleteUsageBefore: (db: KeyDatabase, hour: number) => db.prepare("DELETE FROM key_usage WHERE hour < ?1").bind(hour),
  deleteAuditBefore: (db: KeyDatabase, at: string) => db.prepare("DELETE FROM key_audit WHERE at < ?1").bind(at),
  deadKeys: (db: KeyDatabase, before: string, limit: number) =>
    db
      .prepare(
        "SELECT id, hash FROM api_keys WHERE revoked_at < ?1 UNION SELECT id, hash FROM api_keys WHERE expires_at < ?1 " +
          "ORDER BY id LIMIT CAST(?2 AS INTEGER)",
      )
      .bind(before, limit),
  deleteUsageOf: (db: KeyDatabase, ids: string) =>
    db.prepare("DELETE FROM key_usage WHERE key_id IN (SELECT value FROM json_each(?1))").bind(ids),
  // RETURNING, not meta.changes: D1 counts the changes of migration 0023's triggers with the statement's.
  deleteDeadKeys: (db: KeyDatabase, before: string, ids: string) =>
    db
      .prepare(
        "DELETE FROM api_keys WHERE id IN (SELECT value FROM json_each(?2)) AND (revoked_at < ?1 OR expires_at < ?1) RETURNING id",
      )
      .bind(before, ids),
};

export const AGENT_COUNT = "api_keys.agent.";
export type CountRow = { name: string; n: number; first_name: string | null; last_name: string | null };

// keyState (keys.record.ts) in SQL, ?1 the moment as ISO text.
const REVOKED = "(k.revoked_at IS NOT NULL AND k.revoked_at <= ?1)";
const EXPIRED = `(NOT ${REVOKED} AND k.expires_at IS NOT NULL AND k.expires_at <= ?1)`;
const IN_GRACE = "(k.replaced_by IS NOT NULL AND k.expires_at IS NOT NULL)";
const STATE_SQL = {
  revoked: REVOKED,
  expired: EXPIRED,
  grace: `(NOT ${REVOKED} AND NOT ${EXPIRED} AND ${IN_GRACE})`,
  active: `(NOT ${REVOKED} AND NOT ${EXPIRED} AND NOT ${IN_GRACE})`,
};

export interface KeyPageQuery {
  /** A well-formed key id, or null for a malformed one (which matches nothing). */
  before?: string | null;
  agent?: number | "none";
  mode?: string;
  status?: keyof typeof STATE_SQL;
  rotation?: string;
  name?: string;
}

/** Newest first, `size + 1` rows after `before`. Agent, mode and rotation have indexes; name and status are checked on
 * the rows walked, so a rare name reads as many rows as it takes to fill the page. */
export function keyPageStatement(db: KeyDatabase, q: KeyPageQuery, nowIso: string, size: number) {
  const where: string[] = [];
  const params: unknown[] = [nowIso, size + 1];
  const bind = (value: unknown) => `?${params.push(value)}`;
  if (q.before !== undefined) {
    where.push(`(k.created_at, k.id) < (SELECT created_at, id FROM api_keys WHERE id = ${bind(q.before)})`);
  }
  if (q.agent === "none") where.push("k.agent_id IS NULL");
  else if (q.agent !== undefined) where.push(`k.agent_id = ${bind(q.agent)}`);
  if (q.mode !== undefined) where.push(`k.mode = ${bind(q.mode)}`);
  if (q.rotation === "none") where.push("k.rotation_state IS NULL");
  else if (q.rotation !== undefined) where.push(`k.rotation_state = ${bind(q.rotation)}`);
  // instr, not LIKE: % and _ in the filter are plain characters.
  if (q.name !== undefined) where.push(`instr(lower(k.name), ${bind(q.name.toLowerCase())}) > 0`);
  if (q.status !== undefined) where.push(STATE_SQL[q.status]);
  const sql =
    `SELECT ${READ_COLUMNS.split(", ")
      .map((c) => `k.${c}`)
      .join(", ")}, k.last_used_at, k.copy_pending FROM api_keys k ` +
    `${where.length > 0 ? `WHERE ${where.join(" AND ")} ` : ""}` +
    "ORDER BY k.created_at DESC, k.id DESC LIMIT CAST(?2 AS INTEGER)";
  return db.prepare(sql).bind(...params);
}

/** Every kept count of the keys (a handful of rows and one per agent with keys), each agent's name by its primary key. */
export const keyCountsStatement = (db: KeyDatabase) =>
  db.prepare(
    "SELECT r.name, r.n, a.first_name, a.last_name FROM row_counts r LEFT JOIN sales_agents a " +
      `ON substr(r.name, 1, ${AGENT_COUNT.length}) = '${AGENT_COUNT}' ` +
      `AND a.id = CAST(substr(r.name, ${AGENT_COUNT.length + 1}) AS INTEGER) ` +
      "WHERE r.name >= 'api_keys' AND r.name < 'api_keys/'",
  );
