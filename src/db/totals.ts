// A listing's total from the counts that triggers keep (row_counts; migration row_count_triggers):
// one row read, where a count(*) reads every row of the table.
import { eq } from "drizzle-orm";
import { rowCounts } from "../../drizzle/schema.ts";
import type { Compiler } from "./compiled.ts";

export type CountedTable = "customers" | "postal_codes" | "sales_agents";

/** `[{ total }]`, the shape of a page's total query. */
export function keptTotal(db: Compiler, table: CountedTable) {
  return db.select({ total: rowCounts.n }).from(rowCounts).where(eq(rowCounts.name, table)).prepare();
}
