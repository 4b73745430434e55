// The enrollment codes' statements. SQL text: conditional INSERT ... SELECT RETURNING, and conditions shared with the
// audit entries and the key's claim (PENDING_AT_1).
import type { KeyDatabase } from "../keys/keys.queries.ts";

export interface CodeRow {
  id: string;
  code_hash: string;
  agent_id: number;
  mode: "live" | "test";
  scopes: string;
  name: string;
  key_expires_in: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  key_id: string | null;
  secret_sealed: string | null;
  secret_salt: string | null;
  secret_iv: string | null;
}

const COLUMNS =
  "id, code_hash, agent_id, mode, scopes, name, key_expires_in, created_at, expires_at, used_at, revoked_at, key_id, " +
  "secret_sealed, secret_salt, secret_iv";
/** A code still pending at ?1 (an ISO time). */
export const PENDING_AT_1 = "revoked_at IS NULL AND used_at IS NULL AND expires_at > ?1";
const ERASE = "UPDATE enrollment_codes SET secret_sealed = NULL, secret_salt = NULL, secret_iv = NULL";

export const codeQueries = {
  /** Without a name, the agent's names as the key will carry them, cut to `nameLength`; no row for no agent. */
  insert: (db: KeyDatabase, values: unknown[], agentId: number, nameLength: number) =>
    db
      .prepare(
        "INSERT INTO enrollment_codes (id, code_hash, agent_id, mode, scopes, name, key_expires_in, created_at, expires_at) " +
          `SELECT ?1, ?2, id, ?3, ?4, coalesce(?5, substr(trim(first_name || ' ' || last_name), 1, ${nameLength})), ` +
          `?6, ?7, ?8 FROM sales_agents WHERE id = ?9 RETURNING ${COLUMNS}`,
      )
      .bind(...values, agentId),
  get: (db: KeyDatabase, id: string) => db.prepare(`SELECT ${COLUMNS} FROM enrollment_codes WHERE id = ?1`).bind(id),
  byHash: (db: KeyDatabase, hash: string) =>
    db.prepare(`SELECT ${COLUMNS} FROM enrollment_codes WHERE code_hash = ?1`).bind(hash),
  /** Two statements, not `?1 IS NULL OR ...`: the OR kept SQLite from starting the walk at the anchor, so each page
   * read every newer code first. */
  page: (db: KeyDatabase, after: string | null, limit: number) =>
    after === null
      ? db
          .prepare(
            `SELECT ${COLUMNS} FROM enrollment_codes ORDER BY created_at DESC, id DESC LIMIT CAST(?1 AS INTEGER)`,
          )
          .bind(limit)
      : db
          .prepare(
            `SELECT ${COLUMNS} FROM enrollment_codes WHERE (created_at, id) < ` +
              "(SELECT created_at, id FROM enrollment_codes WHERE id = ?2) ORDER BY created_at DESC, id DESC LIMIT CAST(?1 AS INTEGER)",
          )
          .bind(limit, after),
  revoke: (db: KeyDatabase, id: string, at: string) =>
    db.prepare(`UPDATE enrollment_codes SET revoked_at = ?1 WHERE id = ?2 AND ${PENDING_AT_1}`).bind(at, id),
  /** The agent is checked here too: a code must not be used up by a key that its insert then refuses. */
  use: (db: KeyDatabase, id: string, at: string, keyId: string, box: { sealed: string; salt: string; iv: string }) =>
    db
      .prepare(
        "UPDATE enrollment_codes SET used_at = ?1, key_id = ?2, secret_sealed = ?3, secret_salt = ?4, secret_iv = ?5 " +
          `WHERE id = ?6 AND ${PENDING_AT_1} AND EXISTS (SELECT 1 FROM sales_agents WHERE id = agent_id)`,
      )
      .bind(at, keyId, box.sealed, box.salt, box.iv, id),
  /** The key claim's proof: the code names the new key (?1). */
  usedProof: "EXISTS (SELECT 1 FROM enrollment_codes WHERE key_id = ?1)",
  eraseSecret: (db: KeyDatabase, id: string) => db.prepare(`${ERASE} WHERE id = ?1`).bind(id),
  eraseSecretsUsedBy: (db: KeyDatabase, cutoff: string) =>
    db.prepare(`${ERASE} WHERE secret_sealed IS NOT NULL AND used_at <= ?1`).bind(cutoff),
  /** Used, expired or revoked before ?1; the expiry index bounds the scan (?2: expired before it). */
  deleteDead: (db: KeyDatabase, before: string, bound: string) =>
    db
      .prepare(
        "DELETE FROM enrollment_codes WHERE id IN (SELECT id FROM enrollment_codes WHERE expires_at < ?2 " +
          "AND (expires_at < ?1 OR used_at < ?1 OR revoked_at < ?1) LIMIT 500)",
      )
      .bind(before, bound),
};
