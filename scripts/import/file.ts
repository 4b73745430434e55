// Node: imports a dataset file into the bindings' D1 and purges the lookup cache.
import { purgeLookupCache } from "../../src/lookups/lookups.cache-purge.ts";
import { importRecords, type ImportSummary, type RawRecord } from "../../src/import/importer.ts";
import { readRecords } from "./read.ts";

/** Told of each record as it is read, with the bytes of the file read so far (for progress). */
export type OnRecord = (type: RawRecord["type"], bytesRead: number) => void;

/** The data was imported, but the lookup cache could not be purged. */
export class PurgeError extends Error {
  override readonly name = "PurgeError";
}

export async function importFile(
  path: string,
  bindings: { DB: D1Database; LOOKUP_CACHE: KVNamespace },
  onRecord?: OnRecord,
): Promise<ImportSummary> {
  let bytesRead = 0;
  const records = readRecords(path, (n) => (bytesRead = n));
  const summary = await importRecords(
    bindings.DB,
    onRecord ? tap(records, (r) => onRecord(r.type, bytesRead)) : records,
  );
  // Only after the import succeeded: a failed one changed nothing, so the cached answers still hold.
  try {
    await purgeLookupCache(bindings.LOOKUP_CACHE);
  } catch (err) {
    throw new PurgeError(
      `the data was imported, but purging the lookup cache failed (${(err as Error).message}); ` +
        "cached lookups may be stale until they expire (LOOKUP_CACHE_TTL)",
    );
  }
  return summary;
}

async function* tap<T>(items: AsyncIterable<T>, see: (item: T) => void): AsyncGenerator<T> {
  for await (const item of items) {
    see(item);
    yield item;
  }
}
