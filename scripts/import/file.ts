// Node: imports a dataset file into the bindings' D1 and purges the lookup cache.
import { purgeLookupCache } from "../../src/cache/purge.ts";
import { importRecords, type ImportSummary } from "./index.ts";
import { readRecords } from "./read.ts";

/** The data was imported, but the lookup cache could not be purged. */
export class PurgeError extends Error {
  override readonly name = "PurgeError";
}

export async function importFile(
  path: string,
  bindings: { DB: D1Database; LOOKUP_CACHE: KVNamespace },
): Promise<ImportSummary> {
  const summary = await importRecords(bindings.DB, readRecords(path));
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
