// A key's state at a moment, from its record alone (docs/specification.md section 2): the one rule that
// the store, the admin API and the dashboard's filters all apply.
import type { KeyRecord, KeyState } from "./keys.record.ts";

export function keyState(record: KeyRecord, nowIso: string): KeyState {
  if (record.revoked_at && record.revoked_at <= nowIso) return "revoked";
  if (record.expires_at && record.expires_at <= nowIso) return "expired";
  if (record.replaced_by && record.expires_at) return "grace";
  return "active";
}
