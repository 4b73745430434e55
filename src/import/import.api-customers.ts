// Customers created through the API (origin "api") take SQLite's next free id, which an upstream
// file may later give to another shop. Such a record must not replace the API's customer: it fails
// the whole import, naming every such id. A record whose number normalizes to the same 10 digits is
// the same shop, now known upstream, and is imported over it (it then counts as imported).
// Runs on the staging tables once the file has streamed. Platform-neutral.
import { ImportError } from "./import.errors.ts";
import { SPEC_OF } from "./import.staged.ts";

/** Ids named in the message at most; the count says how many more there are. */
const SHOWN_IDS = 20;

// Staged customer records that would replace a customer the API made, with another shop.
const CLASHES =
  `FROM ${SPEC_OF.customers.staging} AS s JOIN customers AS t ON t.id = s.id ` +
  "WHERE t.origin = 'api' AND (s.phone_key IS NULL OR length(s.phone_key) <> 10 OR s.phone_key IS NOT t.phone_key)";

interface Clash {
  id: number;
  src: string;
  total: number;
}

/** The clash as an ImportError on the first such record of the file; null when there is none. */
export async function findApiCustomerClash(db: D1Database): Promise<ImportError | null> {
  const { results } = await db
    .prepare(`SELECT s.id AS id, s.src AS src, count(*) OVER () AS total ${CLASHES} ORDER BY s.rowid LIMIT ${SHOWN_IDS}`)
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

/**
 * The same check inside the final batch, for a customer that the API creates after the check above
 * and before that batch: the statement then fails at run time (an integer overflow), which rolls
 * the whole batch back. SQLite has no other way to fail a batch on a condition outside a trigger.
 */
export function apiCustomerGuard(db: D1Database): D1PreparedStatement {
  return db.prepare(`SELECT CASE WHEN EXISTS (SELECT 1 ${CLASHES}) THEN abs(-9223372036854775807 - 1) END AS api_customer_guard`);
}

/** Whether a failed final batch was stopped by apiCustomerGuard (nothing else in it does arithmetic). */
export function guardTripped(message: string): boolean {
  return /integer overflow/i.test(message);
}
