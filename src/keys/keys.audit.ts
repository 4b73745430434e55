// The key audit log of keys and enrollment codes (docs/specification.md section 2): each row joins its change's batch,
// conditional on it, so the log and the records never disagree; never a secret, a code or a hash.
import { errors } from "../platform/errors.ts";
import type { KeyDatabase } from "./keys.record.ts";
import type { KeyMode } from "./keys.secret.ts";

export const KEY_ACTORS = ["dashboard", "admin-api", "cli", "start", "key", "enrollment"] as const;
export type KeyActorName = (typeof KEY_ACTORS)[number];

export interface KeyActor {
  actor: KeyActorName;
  sessionId?: string | null;
}

export type AuditAction =
  "create" | "roll" | "revoke" | "enroll-code" | "enroll" | "revoke-code" | "rotation-requested" | "rotate";

export interface AuditEntry {
  at: string;
  action: AuditAction;
  /** For a roll or a rotate, the old key; null for an enrollment code's own entries. */
  key_id: string | null;
  new_key_id: string | null;
  /** The enrollment code of enroll-code, enroll and revoke-code, else null. */
  code_id: string | null;
  key_name: string;
  mode: KeyMode;
  actor: KeyActorName;
  session_id: string | null;
}

export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 10_000;
export const AUDIT_RETENTION_DAYS = 400;

/** A bad actor is a programming error (a TypeError, not a 422), refused before any write. */
export function checkActor(actor: KeyActor): { actor: KeyActorName; sessionId: string | null } {
  if (!actor || !(KEY_ACTORS as readonly unknown[]).includes(actor.actor)) {
    throw new TypeError(`a key change needs an actor: one of ${KEY_ACTORS.join(", ")}`);
  }
  const sessionId = actor.sessionId ?? null;
  if (sessionId !== null && (typeof sessionId !== "string" || sessionId.length > 200))
    throw new TypeError("bad session id");
  return { actor: actor.actor, sessionId };
}

export function checkAuditLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_LIMIT) {
    throw errors.validation([{ field: "limit", message: `must be a whole number from 1 to ${MAX_AUDIT_LIMIT}` }]);
  }
  return limit;
}

const INSERT = "INSERT INTO key_audit (at, action, key_id, new_key_id, code_id, key_name, mode, actor, session_id)";

/** Written only if `proofKeyId`, the key the change makes, exists by then: a change that did nothing logs nothing. */
export function auditStatement(db: KeyDatabase, entry: AuditEntry, proofKeyId: string): D1PreparedStatement {
  return db
    .prepare(`${INSERT} SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?10)`)
    .bind(
      entry.at,
      entry.action,
      entry.key_id,
      entry.new_key_id,
      entry.code_id,
      entry.key_name,
      entry.mode,
      entry.actor,
      entry.session_id,
      proofKeyId,
    );
}

/** Must run before the revoking UPDATE in the batch: it writes only while the key is not yet revoked. */
export function revokeAuditStatement(
  db: KeyDatabase,
  id: string,
  at: string,
  actor: { actor: KeyActorName; sessionId: string | null },
): D1PreparedStatement {
  return db
    .prepare(
      `${INSERT} SELECT ?1, 'revoke', id, NULL, NULL, name, mode, ?2, ?3 FROM api_keys WHERE id = ?4 AND revoked_at IS NULL`,
    )
    .bind(at, actor.actor, actor.sessionId, id);
}

/** An enrollment code's own entry (enroll-code, revoke-code: key_id null), written only while the code's row matches
 * `codeCondition` (SQL on enrollment_codes; ?1 is the entry's time), so that a change that did nothing logs nothing:
 * for a revoke-code it must run before the revoking UPDATE in the batch. */
export function codeAuditStatement(
  db: KeyDatabase,
  entry: { at: string; action: "enroll-code" | "revoke-code"; codeId: string },
  actor: { actor: KeyActorName; sessionId: string | null },
  codeCondition: string,
): D1PreparedStatement {
  return db
    .prepare(
      `${INSERT} SELECT ?1, ?2, NULL, NULL, id, name, mode, ?3, ?4 FROM enrollment_codes WHERE id = ?5 AND (${codeCondition})`,
    )
    .bind(entry.at, entry.action, actor.actor, actor.sessionId, entry.codeId);
}

export async function readAudit(db: KeyDatabase, limit: number): Promise<AuditEntry[]> {
  const { results } = await db
    .prepare(
      "SELECT at, action, key_id, new_key_id, code_id, key_name, mode, actor, session_id FROM key_audit ORDER BY at DESC, id DESC LIMIT ?1",
    )
    .bind(limit)
    .all<AuditEntry>();
  return results.map((r) => ({
    at: r.at,
    action: r.action,
    key_id: r.key_id,
    new_key_id: r.new_key_id,
    code_id: r.code_id,
    key_name: r.key_name,
    mode: r.mode,
    actor: r.actor,
    session_id: r.session_id,
  }));
}
