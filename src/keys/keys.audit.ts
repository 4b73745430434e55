// The key audit log of keys and enrollment codes (docs/specification.md section 2): each row joins its change's batch,
// conditional on it, so the log and the records never disagree; never a secret, a code or a hash.
import { errors } from "../platform/errors.ts";
import { auditQueries, type KeyDatabase } from "./keys.queries.ts";
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

/** An enrollment code's own entry (enroll-code, revoke-code: key_id null), written only while the code's row matches
 * `codeCondition` (SQL on enrollment_codes; ?1 is the entry's time); a revoke-code's runs before the revoking UPDATE. */
export function codeAuditStatement(
  db: KeyDatabase,
  entry: { at: string; action: "enroll-code" | "revoke-code"; codeId: string },
  actor: { actor: KeyActorName; sessionId: string | null },
  codeCondition: string,
): D1PreparedStatement {
  return auditQueries.code(db, entry, actor.actor, actor.sessionId, codeCondition);
}

export async function readAudit(db: KeyDatabase, limit: number): Promise<AuditEntry[]> {
  const { results } = await auditQueries.latest(db, limit).all<AuditEntry>();
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
