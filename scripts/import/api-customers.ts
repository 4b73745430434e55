// Customers created through the API (origin "api") take SQLite's next free id, which an upstream
// file may later give to another shop. Such a record must not replace the API's customer: it fails
// the whole import, naming every such id. A record whose number normalizes to the same 10 digits is
// the same shop, now known upstream, and is imported over it (it then counts as imported).
// Runs on the staging tables once the file has streamed. Platform-neutral.
import { ImportError } from "./errors.ts";
import { SPEC_OF } from "./staged.ts";

/** Ids named in the message at most; the count says how many more there are. */
const SHOWN_IDS = 20;

interface Clash {
  id: number;
  src: string;
  total: number;
}

/** The clash as an ImportError on the first such record of the file; null when there is none. */
export async function findApiCustomerClash(db: D1Database): Promise<ImportError | null> {
  const staging = SPEC_OF.customers.staging;
  const { results } = await db
    .prepare(
      `SELECT s.id AS id, s.src AS src, count(*) OVER () AS total FROM ${staging} AS s ` +
        "JOIN customers AS t ON t.id = s.id " +
        "WHERE t.origin = 'api' AND (s.phone_key IS NULL OR length(s.phone_key) <> 10 OR s.phone_key IS NOT t.phone_key) " +
        `ORDER BY s.rowid LIMIT ${SHOWN_IDS}`,
    )
    .all<Clash>();
  const first = results[0];
  if (!first) return null;
  const ids = results.map((r) => r.id).join(", ");
  const more = first.total > results.length ? ` and ${first.total - results.length} more` : "";
  const noun = first.total === 1 ? "customer" : "customers";
  return new ImportError(
    `${noun} ${ids}${more} of the database ${first.total === 1 ? "was" : "were"} created through the API, and the ` +
      "file gives these ids to records with another contact number; an import never overwrites such a customer " +
      "(give the file's records other ids, or the same number if they are the same shop)",
    first.src,
    "customer",
    first.id,
    "id",
  );
}
