// Empties the KV lookup cache (after an import, so that no lookup answers from before it).

// Deletes run this many at a time: quick, without a burst of thousands of calls at once.
const PARALLEL_DELETES = 50;

export async function purgeLookupCache(
  kv: KVNamespace,
  { pageSize = 1000 }: { pageSize?: number } = {},
): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await kv.list({ cursor, limit: pageSize });
    const names = page.keys.map((k) => k.name);
    for (let i = 0; i < names.length; i += PARALLEL_DELETES) {
      await Promise.all(names.slice(i, i + PARALLEL_DELETES).map((name) => kv.delete(name)));
    }
    deleted += names.length;
    // The cursor marks a position in key order, so deleting the keys behind it skips nothing.
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return deleted;
}
