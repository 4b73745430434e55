// The audit log of keys and enrollment codes: each row in its change's batch, conditional on it; never a secret.
import { errors } from "../platform/errors.ts";
import { auditQueries, type KeyDatabase } from "./keys.queries.ts";
import { usageQueries } from "./keys.usage.queries.ts";
import { HOUR_MS, hourOf, USAGE_RETENTION_DAYS } from "./keys.usage.ts";
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

// The daily job's part (docs/specification.md section 7): usage, audit and dead keys past their retention.
const DAY_MS = 24 * HOUR_MS;

export interface RetentionResult {
  usage_rows_deleted: number;
  audit_rows_deleted: number;
}

export async function deleteExpiredKeyData(db: KeyDatabase, now: Date): Promise<RetentionResult> {
  const oldestHourKept = hourOf(now.getTime()) - USAGE_RETENTION_DAYS * 24 + 1;
  const auditBefore = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  const [usage, audit] = await db.batch([
    usageQueries.deleteUsageBefore(db, oldestHourKept),
    usageQueries.deleteAuditBefore(db, auditBefore),
  ]);
  return { usage_rows_deleted: usage?.meta.changes ?? 0, audit_rows_deleted: audit?.meta.changes ?? 0 };
}

/** A key revoked, expired or replaced this long ago goes, with its KV copy and usage (its audit stays). */
export const DEAD_KEY_RETENTION_DAYS = 90;
/** Keys per chunk (each a KV delete), and chunks per run: one run stays well inside a Worker's subrequests. */
export const DEAD_KEYS_PER_CHUNK = 100;
export const DEAD_KEY_CHUNKS_PER_RUN = 5;

/** Keys stopped over 90 days ago: KV copies first, then usage and records in one batch, so a run cut short leaves at
 * worst records without copies (which authenticate no better) for the next run. */
export async function deleteDeadKeys(db: KeyDatabase, kv: KVNamespace, now: Date): Promise<{ keys_deleted: number }> {
  const before = new Date(now.getTime() - DEAD_KEY_RETENTION_DAYS * DAY_MS).toISOString();
  let deleted = 0;
  for (let chunk = 0; chunk < DEAD_KEY_CHUNKS_PER_RUN; chunk++) {
    const { results } = await usageQueries
      .deadKeys(db, before, DEAD_KEYS_PER_CHUNK)
      .all<{ id: string; hash: string }>();
    if (results.length === 0) break;
    await Promise.all(results.map((k) => kv.delete(`hash:${k.hash}`)));
    const ids = JSON.stringify(results.map((k) => k.id));
    const [, keys] = await db.batch([
      usageQueries.deleteUsageOf(db, ids),
      usageQueries.deleteDeadKeys(db, before, ids),
    ]);
    deleted += keys?.results.length ?? 0;
    if (results.length < DEAD_KEYS_PER_CHUNK) break;
  }
  return { keys_deleted: deleted };
}
