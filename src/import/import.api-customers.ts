// An import never overwrites an API-made customer (whose id a file may reuse) unless it is the same shop (section 7).
import { ImportError } from "./import.errors.ts";
import { clashQueries } from "./import.queries.ts";

/** Ids named in the message at most; the count says how many more there are. */
const SHOWN_IDS = 20;

interface Clash {
  id: number;
  src: string;
  total: number;
}

export async function findApiCustomerClash(db: D1Database): Promise<ImportError | null> {
  const { results } = await clashQueries.first(db, SHOWN_IDS).all<Clash>();
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

/** The same check inside the final batch, for a customer the API creates meanwhile. */
export const apiCustomerGuard = clashQueries.guard;

/** Whether a failed final batch was stopped by a guard: apiCustomerGuard or the lease's (nothing else in it does arithmetic). */
export function guardTripped(message: string): boolean {
  return /integer overflow/i.test(message);
}
