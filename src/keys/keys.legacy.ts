// Key records from before D1 held them: a KV listing entry "id:<key id>" with the KeyRecord as metadata.
// The store carries them into D1 on first use, then deletes these entries (the "hash:" copies stay).
import { fromCopy, type StoredCopy } from "./keys.copy.ts";
import type { KeyRecord } from "./keys.record.ts";

const LEGACY_PREFIX = "id:";

export async function legacyRecords(kv: KVNamespace): Promise<KeyRecord[]> {
  const records: KeyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<StoredCopy> = await kv.list<StoredCopy>({ prefix: LEGACY_PREFIX, cursor });
    for (const k of page.keys) if (k.metadata) records.push(fromCopy(k.metadata));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return records;
}

/** Only after D1 committed `records`: until then these entries are their only record. */
export async function drainCarriedOver(kv: KVNamespace, records: KeyRecord[]): Promise<void> {
  await Promise.all(records.map((r) => kv.delete(`${LEGACY_PREFIX}${r.id}`)));
}
