// Key records from before D1 held them: KV alone kept each one, as a listing entry "id:<key id>"
// whose metadata is the whole KeyRecord (beside the "hash:" entry that authentication reads, which
// stays). The key store carries them over into D1 on first use, then deletes the listing entries.
import { fromCopy, type StoredCopy } from "./keys.copy.ts";
import type { KeyRecord } from "./keys.record.ts";

const LEGACY_PREFIX = "id:";

/** Every record that a listing entry still holds; one KV list call per 1000 entries. */
export async function legacyRecords(kv: KVNamespace): Promise<KeyRecord[]> {
  const records: KeyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<StoredCopy> = await kv.list<StoredCopy>({ prefix: LEGACY_PREFIX, cursor });
    // They predate scopes and agents: both scopes, no agent.
    for (const k of page.keys) if (k.metadata) records.push(fromCopy(k.metadata));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return records;
}

/** Deletes the listing entries of records that D1 now holds (only after D1 committed them). */
export async function drainCarriedOver(kv: KVNamespace, records: KeyRecord[]): Promise<void> {
  await Promise.all(records.map((r) => kv.delete(`${LEGACY_PREFIX}${r.id}`)));
}
