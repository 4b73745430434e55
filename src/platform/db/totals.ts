// Listings' totals from the counts triggers keep: one row read, where count(*) reads every row it counts.
import { eq, type Placeholder, type SQL } from "drizzle-orm";
import { agentCustomerCounts, customerOrderCounts, rowCounts } from "../../../drizzle/schema.ts";
import type { Compiler } from "./compiled.ts";

export type CountedTable = "customers" | "postal_codes" | "sales_agents";

export function keptCount(db: Compiler, table: CountedTable) {
  return db.select({ total: rowCounts.n }).from(rowCounts).where(eq(rowCounts.name, table));
}

/** Prepared: `[{ total }]`, the shape of a page's total query. */
export function keptTotal(db: Compiler, table: CountedTable) {
  return keptCount(db, table).prepare();
}

/** No row when the agent has none. */
export function agentCustomerCount(db: Compiler, agentId: Placeholder) {
  return db
    .select({ total: agentCustomerCounts.n })
    .from(agentCustomerCounts)
    .where(eq(agentCustomerCounts.agentId, agentId));
}

/** No row when the customer has none. */
export function customerOrderCount(db: Compiler, customerId: SQL) {
  return db
    .select({ total: customerOrderCounts.n })
    .from(customerOrderCounts)
    .where(eq(customerOrderCounts.customerId, customerId));
}
