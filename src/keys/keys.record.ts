// A key record, its types and its reading from a row or a KV copy, shared by src/keys/ without the store.
import type { KeyRow, RotationRow } from "./keys.queries.ts";
import { type Scope, storedScopes } from "./keys.rules.ts";
import type { KeyMode } from "./keys.secret.ts";

export type { KeyDatabase } from "./keys.queries.ts";

export interface KeyRecord {
  id: string;
  name: string;
  mode: KeyMode;
  /** e.g. "sk_test_AbCd…": enough to recognize a key, useless to use it. */
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  replaces: string | null;
  replaced_by: string | null;
  scopes: Scope[];
  agent_id: number | null;
  rotation: KeyRotation | null;
  /** Internal (never in an answer): when the successor of this rotated key was first used. */
  successor_first_used_at: string | null;
  /** Internal: a rotation's successor whose first use has not yet reached its old key's record. */
  awaits_first_use: boolean;
  /** Internal: the root of the key's lineage (docs/specification.md section 9): its own id for a key made new, the
   * old key's lineage for a roll's or a rotation's new key. The rate limit and Idempotency-Key go by it. */
  lineage_id: string;
}

/** A copy written before rotation existed has none of these. */
export type RotationFields = "rotation" | "successor_first_used_at" | "awaits_first_use";

/** docs/specification.md section 9, "Progress": the admin API's and `keys list --json`'s `rotation`. */
export interface KeyRotation {
  state: "due" | "rotated" | "rolled";
  requested_at: string | null;
  rotated_at: string | null;
  successor_id: string | null;
  old_key_uses_after_successor: number;
}

/** "grace": rolled, still working until its expires_at. */
export type KeyState = "active" | "grace" | "expired" | "revoked";

export interface ChangedKey {
  record: KeyRecord;
  /** The KV copy was not confirmed: the change stands, and the 5-minute job rewrites the copy. */
  copyPending: boolean;
}

export interface CreatedKey extends ChangedKey {
  /** Shown once, never stored. */
  secret: string;
}

export function keyState(record: KeyRecord, nowIso: string): KeyState {
  if (record.revoked_at && record.revoked_at <= nowIso) return "revoked";
  if (record.expires_at && record.expires_at <= nowIso) return "expired";
  if (record.replaced_by && record.expires_at) return "grace";
  return "active";
}

export function toRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    prefix: row.prefix,
    hash: row.hash,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    replaces: row.rolled_from,
    replaced_by: row.replaced_by,
    scopes: storedScopes(row.scopes),
    agent_id: row.agent_id,
    ...rotationOf(row),
    lineage_id: lineageOf(row.id, row.lineage_id),
  };
}

/** The lineage rule: a key made by rotating or rolling keeps its first ancestor's; any other key, and a row or
 * copy from before lineages (migration 0019), is its own. */
export function lineageOf(id: string, lineage: unknown): string {
  return typeof lineage === "string" ? lineage : id;
}

function rotationOf(row: RotationRow): Pick<KeyRecord, RotationFields> {
  const state = row.rotation_state ?? null;
  return {
    rotation: state
      ? {
          state,
          requested_at: row.rotation_requested_at ?? null,
          rotated_at: row.rotated_at ?? null,
          successor_id: state === "rotated" ? row.replaced_by : null,
          old_key_uses_after_successor: row.old_key_uses_after_successor ?? 0,
        }
      : null,
    successor_first_used_at: row.successor_first_used_at ?? null,
    awaits_first_use: row.awaits_first_use === 1,
  };
}

/** A KV copy written before rotation existed reads as a key with none. */
export function rotationOfCopy(stored: Partial<Pick<KeyRecord, RotationFields>>): Pick<KeyRecord, RotationFields> {
  return {
    rotation: stored.rotation ?? null,
    successor_first_used_at: stored.successor_first_used_at ?? null,
    awaits_first_use: stored.awaits_first_use === true,
  };
}
