// The rotation columns of a key record (docs/specification.md section 9) as the record and its KV copy carry them: the
// public `rotation` object, and the two fields that only the request path reads.
import type { KeyRecord, KeyRotation } from "./keys.record.ts";

export const ROTATION_COLUMNS =
  "rotation_state, rotation_requested_at, rotated_at, successor_first_used_at, old_key_uses_after_successor, awaits_first_use";

/** Optional: rows read before the rotation columns existed (and test rows) have none. */
export interface RotationRow {
  rotation_state?: KeyRotation["state"] | null;
  rotation_requested_at?: string | null;
  rotated_at?: string | null;
  successor_first_used_at?: string | null;
  old_key_uses_after_successor?: number | null;
  awaits_first_use?: number | null;
  replaced_by: string | null;
}

export function rotationOf(
  row: RotationRow,
): Pick<KeyRecord, "rotation" | "successor_first_used_at" | "awaits_first_use"> {
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
export function rotationOfCopy(
  stored: Partial<Pick<KeyRecord, "rotation" | "successor_first_used_at" | "awaits_first_use">>,
): Pick<KeyRecord, "rotation" | "successor_first_used_at" | "awaits_first_use"> {
  return {
    rotation: stored.rotation ?? null,
    successor_first_used_at: stored.successor_first_used_at ?? null,
    awaits_first_use: stored.awaits_first_use === true,
  };
}
