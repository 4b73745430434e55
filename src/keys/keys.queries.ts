// The key records' statements. SQL text, not drizzle's builder: conditional INSERT ... SELECT and UPDATE ... RETURNING
// in one batch, with proofs and numbered parameters the callers compose (a claim's proof, a rotation's columns).
export type KeyDatabase = Pick<D1Database, "prepare" | "batch">;

export const KEY_COLUMNS =
  "id, name, mode, prefix, hash, created_at, expires_at, revoked_at, rolled_from, replaced_by, scopes, agent_id, lineage_id";
const PLACEHOLDERS = KEY_COLUMNS.split(", ")
  .map((_, i) => `?${i + 1}`)
  .join(", ");
const ROTATION_COLUMNS =
  "rotation_state, rotation_requested_at, rotated_at, successor_first_used_at, old_key_uses_after_successor, awaits_first_use";
/** What a read adds to the written columns: the rotation's, which only rotation statements write. */
export const READ_COLUMNS = `${KEY_COLUMNS}, ${ROTATION_COLUMNS}`;
const VERSIONED_COLUMNS = `${READ_COLUMNS}, version, copy_pending`;
const READ_VERSIONED = `SELECT ${VERSIONED_COLUMNS} FROM api_keys`;
const MARK = "version = version + 1, copy_pending = 1";
/** A rotation's mark: the copy lacks only the key's "due", which authentication already reads from the fleet's due
 * set (docs/specification.md section 9), so the key is not shown as pending (2); a copy pending already stays 1. */
const ROTATION_MARK = "version = version + 1, copy_pending = CASE copy_pending WHEN 1 THEN 1 ELSE 2 END";

/** Optional: rows read before the rotation columns existed (and test rows) have none. */
export interface RotationRow {
  rotation_state?: "due" | "rotated" | "rolled" | null;
  rotation_requested_at?: string | null;
  rotated_at?: string | null;
  successor_first_used_at?: string | null;
  old_key_uses_after_successor?: number | null;
  awaits_first_use?: number | null;
  replaced_by: string | null;
}

export interface KeyRow extends RotationRow {
  id: string;
  name: string;
  mode: "live" | "test";
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  rolled_from: string | null;
  replaced_by: string | null;
  scopes: string;
  agent_id: number | null;
  /** Null only on a row that migration 0019 did not reach (none): read as the key's own. */
  lineage_id: string | null;
}

export interface VersionedRow extends KeyRow {
  version: number;
  copy_pending: number;
}

export type UsageKeyRow = KeyRow & { last_used_at: string | null; copy_pending: number };

/** A key_audit row; `proofKeyId` or the condition of each statement keeps a change that did nothing from logging. */
export interface AuditRow {
  at: string;
  action: string;
  key_id: string | null;
  new_key_id: string | null;
  code_id: string | null;
  key_name: string;
  mode: string;
  actor: string;
  session_id: string | null;
}

export const keyQueries = {
  get: (db: KeyDatabase, id: string) => db.prepare(`SELECT ${READ_COLUMNS} FROM api_keys WHERE id = ?1`).bind(id),
  read: (db: KeyDatabase, id: string) => db.prepare(`${READ_VERSIONED} WHERE id = ?1`).bind(id),
  readByHash: (db: KeyDatabase, hash: string) => db.prepare(`${READ_VERSIONED} WHERE hash = ?1`).bind(hash),
  readReplacedBy: (db: KeyDatabase, id: string) => db.prepare(`${READ_VERSIONED} WHERE replaced_by = ?1`).bind(id),
  list: (db: KeyDatabase) => db.prepare(`SELECT ${READ_COLUMNS} FROM api_keys ORDER BY created_at, id`),
  listWithUse: (db: KeyDatabase) =>
    db.prepare(`SELECT ${READ_COLUMNS}, last_used_at, copy_pending FROM api_keys ORDER BY created_at, id`),

  /** Only when the agent (?12) exists, and the claim's `proof` (SQL; ?1 the new key's id) holds. */
  insert: (db: KeyDatabase, values: unknown[], proof: string | null) =>
    db
      .prepare(
        `INSERT INTO api_keys (${KEY_COLUMNS}, copy_pending) SELECT ${PLACEHOLDERS}, 1 ` +
          "WHERE (?12 IS NULL OR EXISTS (SELECT 1 FROM sales_agents WHERE id = ?12))" +
          (proof ? ` AND ${proof}` : ""),
      )
      .bind(...values),
  insertOrIgnore: (db: KeyDatabase) =>
    db.prepare(`INSERT OR IGNORE INTO api_keys (${KEY_COLUMNS}) VALUES (${PLACEHOLDERS})`),

  /** The new key of a roll or a rotation, only while the old one (?9) is active at `now`. */
  insertReplacement: (db: KeyDatabase, values: unknown[], now: string) =>
    db
      .prepare(
        `INSERT INTO api_keys (${KEY_COLUMNS}, copy_pending) SELECT ${PLACEHOLDERS}, 1 WHERE EXISTS (SELECT 1 FROM api_keys ` +
          "WHERE id = ?9 AND revoked_at IS NULL AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > ?14))",
      )
      .bind(...values, now),
  /** The old key pointed at the new one, if it exists; a roll cancels a due rotation, a rotate records its own. */
  replaceOld: (
    db: KeyDatabase,
    change: { nextId: string; oldId: string; oldExpiresAt: string },
    rotate: Rotated | null,
  ) =>
    db
      .prepare(
        `UPDATE api_keys SET replaced_by = ?1, expires_at = ?2, ${rotate ? ROTATED : ROLLED}, ${MARK} ` +
          "WHERE id = ?3 AND replaced_by IS NULL AND EXISTS (SELECT 1 FROM api_keys WHERE id = ?1)",
      )
      .bind(change.nextId, change.oldExpiresAt, change.oldId, ...(rotate ? [rotate.now, rotate.sealed] : [])),
  awaitFirstUse: (db: KeyDatabase, id: string) =>
    db.prepare("UPDATE api_keys SET awaits_first_use = 1 WHERE id = ?1").bind(id),

  /** A revoked key stops: the sealed successor secret of its rotation goes with it. */
  revoke: (db: KeyDatabase, id: string, now: string) =>
    db
      .prepare(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?1), successor_secret_sealed = NULL, ${MARK} WHERE id = ?2`,
      )
      .bind(now, id),
  confirm: (db: KeyDatabase, id: string, version: number) =>
    db
      .prepare("UPDATE api_keys SET copy_pending = 0 WHERE id = ?1 AND version = ?2 AND copy_pending <> 0")
      .bind(id, version),
  mark: (db: KeyDatabase, id: string) => db.prepare(`UPDATE api_keys SET ${MARK} WHERE id = ?1`).bind(id),
  /** Reads only the partial indexes on copy_pending and on the due keys (a rotation's marks). */
  pending: (db: KeyDatabase, afterId: string, limit: number) =>
    db
      .prepare(
        `SELECT * FROM (${READ_VERSIONED} WHERE copy_pending = 1 AND id > ?1 ORDER BY id LIMIT CAST(?2 AS INTEGER)) ` +
          `UNION ALL SELECT * FROM (${READ_VERSIONED} WHERE rotation_state = 'due' ` +
          "AND copy_pending = 2 AND id > ?1 ORDER BY id LIMIT CAST(?2 AS INTEGER)) ORDER BY id LIMIT CAST(?2 AS INTEGER)",
      )
      .bind(afterId, limit),
};

type Rotated = { now: string; sealed: string | null };
const ROLLED = "rotation_state = CASE WHEN rotation_state = 'due' THEN 'rolled' ELSE rotation_state END";
const ROTATED = "rotation_state = 'rotated', rotated_at = ?4, successor_secret_sealed = ?5";

/** ?1 now, ?2 ids (JSON), ?3 mode, ?4 agent id: an active key of the filter that no rotation has touched. */
const MARKABLE =
  "revoked_at IS NULL AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > ?1) AND rotation_state IS NULL " +
  "AND (?2 IS NULL OR id IN (SELECT value FROM json_each(?2))) AND (?3 IS NULL OR mode = ?3) AND (?4 IS NULL OR agent_id = ?4)";
type Filter = [ids: string | null, mode: string | null, agentId: number | null];

export const rotationQueries = {
  unknownIds: (db: KeyDatabase, ids: string) =>
    db.prepare("SELECT value AS id FROM json_each(?1) WHERE value NOT IN (SELECT id FROM api_keys)").bind(ids),
  /** One audit row per key marked, before the marks in the same batch, by the same condition. */
  auditDue: (db: KeyDatabase, now: string, filter: Filter, actor: string, sessionId: string | null) =>
    db
      .prepare(
        "INSERT INTO key_audit (at, action, key_id, new_key_id, key_name, mode, actor, session_id) " +
          `SELECT ?1, 'rotation-requested', id, NULL, name, mode, ?5, ?6 FROM api_keys WHERE ${MARKABLE} ORDER BY id`,
      )
      .bind(now, ...filter, actor, sessionId),
  // RETURNING, not meta.changes: D1 counts the changes of the key list's count triggers with the statement's.
  markDue: (db: KeyDatabase, now: string, filter: Filter) =>
    db
      .prepare(
        `UPDATE api_keys SET rotation_state = 'due', rotation_requested_at = ?1, ${ROTATION_MARK} WHERE ${MARKABLE} RETURNING id`,
      )
      .bind(now, ...filter),
  due: (db: KeyDatabase) =>
    db.prepare("SELECT id FROM api_keys WHERE rotation_state = 'due' AND revoked_at IS NULL ORDER BY id"),
  markDueCopies: (db: KeyDatabase) =>
    db.prepare(`UPDATE api_keys SET ${MARK} WHERE rotation_state = 'due' AND revoked_at IS NULL`),
  workingOfLineage: (db: KeyDatabase, lineageId: string, now: string, limit: number) =>
    db
      .prepare(
        "SELECT id FROM api_keys WHERE lineage_id = ?1 AND revoked_at IS NULL " +
          "AND (expires_at IS NULL OR expires_at > ?2) ORDER BY id LIMIT CAST(?3 AS INTEGER)",
      )
      .bind(lineageId, now, limit),
  countDue: (db: KeyDatabase, filter: Filter) =>
    db
      .prepare(
        "SELECT count(*) AS n FROM api_keys WHERE rotation_state = 'due' AND revoked_at IS NULL " +
          "AND (?1 IS NULL OR id IN (SELECT value FROM json_each(?1))) AND (?2 IS NULL OR mode = ?2) AND (?3 IS NULL OR agent_id = ?3)",
      )
      .bind(...filter),
  sealedSecret: (db: KeyDatabase, id: string) =>
    db.prepare("SELECT successor_secret_sealed AS sealed FROM api_keys WHERE id = ?1").bind(id),
  /** The successor's first use cuts the old key to `cut` (never longer than its grace); the sealed secret goes. */
  firstUseOfOld: (db: KeyDatabase, successorId: string, at: string, cut: string) =>
    db
      .prepare(
        "UPDATE api_keys SET successor_first_used_at = ?2, successor_secret_sealed = NULL, " +
          `expires_at = CASE WHEN expires_at IS NULL OR expires_at > ?3 THEN ?3 ELSE expires_at END, ${MARK} ` +
          "WHERE replaced_by = ?1 AND rotation_state = 'rotated' AND successor_first_used_at IS NULL",
      )
      .bind(successorId, at, cut),
  firstUseOfSuccessor: (db: KeyDatabase, successorId: string) =>
    db
      .prepare(`UPDATE api_keys SET awaits_first_use = 0, ${MARK} WHERE id = ?1 AND awaits_first_use = 1`)
      .bind(successorId),
  eraseStoppedSecrets: (db: KeyDatabase, now: string) =>
    db
      .prepare(
        "UPDATE api_keys SET successor_secret_sealed = NULL WHERE successor_secret_sealed IS NOT NULL " +
          "AND (revoked_at IS NOT NULL OR (expires_at IS NOT NULL AND expires_at <= ?1))",
      )
      .bind(now),
};

const INSERT_AUDIT =
  "INSERT INTO key_audit (at, action, key_id, new_key_id, code_id, key_name, mode, actor, session_id)";

export const auditQueries = {
  /** Written only if `proofKeyId`, the key the change makes, exists by then. */
  entry: (db: KeyDatabase, e: AuditRow, proofKeyId: string) =>
    db
      .prepare(
        `${INSERT_AUDIT} SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?10)`,
      )
      .bind(e.at, e.action, e.key_id, e.new_key_id, e.code_id, e.key_name, e.mode, e.actor, e.session_id, proofKeyId),
  /** Must run before the revoking UPDATE in the batch: it writes only while the key is not yet revoked. */
  revoke: (db: KeyDatabase, id: string, at: string, actor: string, sessionId: string | null) =>
    db
      .prepare(
        `${INSERT_AUDIT} SELECT ?1, 'revoke', id, NULL, NULL, name, mode, ?2, ?3 FROM api_keys WHERE id = ?4 AND revoked_at IS NULL`,
      )
      .bind(at, actor, sessionId, id),
  /** Written only while the code's row matches `codeCondition` (SQL on enrollment_codes; ?1 the entry's time). */
  code: (
    db: KeyDatabase,
    e: { at: string; action: string; codeId: string },
    actor: string,
    sessionId: string | null,
    codeCondition: string,
  ) =>
    db
      .prepare(
        `${INSERT_AUDIT} SELECT ?1, ?2, NULL, NULL, id, name, mode, ?3, ?4 FROM enrollment_codes WHERE id = ?5 AND (${codeCondition})`,
      )
      .bind(e.at, e.action, actor, sessionId, e.codeId),
  latest: (db: KeyDatabase, limit: number) =>
    db
      .prepare(
        "SELECT at, action, key_id, new_key_id, code_id, key_name, mode, actor, session_id FROM key_audit ORDER BY at DESC, id DESC LIMIT CAST(?1 AS INTEGER)",
      )
      .bind(limit),
};
