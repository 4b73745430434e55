// The KV copy of a key record, as authentication reads it. A copy written before scopes and agents
// existed has neither member and reads as both scopes and no agent: those keys keep working untouched.
import { storedScopes } from "./keys.scopes.ts";
import type { KeyRecord, RotationFields } from "./keys.record.ts";
import { rotationOfCopy } from "./keys.rotation.record.ts";

export type StoredCopy = Omit<KeyRecord, "scopes" | "agent_id" | "lineage_id" | RotationFields> & {
  scopes?: unknown;
  agent_id?: unknown;
  lineage_id?: unknown;
} & Partial<Pick<KeyRecord, RotationFields>>;

export function fromCopy(stored: StoredCopy): KeyRecord {
  const agent = stored.agent_id;
  return {
    ...stored,
    scopes: storedScopes(stored.scopes),
    agent_id: typeof agent === "number" && Number.isSafeInteger(agent) && agent > 0 ? agent : null,
    // A copy written before lineages existed stands for its own until the job rewrites it (migration 0019).
    lineage_id: typeof stored.lineage_id === "string" ? stored.lineage_id : stored.id,
    ...rotationOfCopy(stored),
  };
}
