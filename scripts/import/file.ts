// Node: imports a dataset file into the bindings' D1 and purges the lookup cache.
import { purgeLookupCache } from "../../src/cache/purge.ts";
import { importRecords, type ImportSummary } from "./index.ts";
import { readRecords } from "./read.ts";

export async function importFile(
  path: string,
  bindings: { DB: D1Database; LOOKUP_CACHE: KVNamespace },
): Promise<ImportSummary> {
  const summary = await importRecords(bindings.DB, readRecords(path));
  // Only after the import succeeded: a failed one changed nothing, so the cached answers still hold.
  await purgeLookupCache(bindings.LOOKUP_CACHE);
  return summary;
}
