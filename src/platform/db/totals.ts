// Listings' totals from the counts that triggers keep (row_counts, customer_order_counts,
// agent_customer_counts; migrations row_count_triggers and order_and_agent_count_triggers): one row
// read, where a count(*) reads every row it counts. Each is a `{ total }` select: prepared, it is a
// page's total query; inside another query, a scalar subquery (limitWithin's kept total).
import { eq, type Placeholder, type SQL } from "drizzle-orm";
import { agentCustomerCounts, customerOrderCounts, rowCounts } from "../../../drizzle/schema.ts";
import type { Compiler } from "./compiled.ts";

export type CountedTable = "customers" | "postal_codes" | "sales_agents";

/** How many rows the table holds. */
export function keptCount(db: Compiler, table: CountedTable) {
  return db.select({ total: rowCounts.n }).from(rowCounts).where(eq(rowCounts.name, table));
}

/** `[{ total }]`, the shape of a page's total query. */
export function keptTotal(db: Compiler, table: CountedTable) {
  return keptCount(db, table).prepare();
}

/** How many customers the agent has; no row when none. */
export function agentCustomerCount(db: Compiler, agentId: Placeholder) {
  return db.select({ total: agentCustomerCounts.n }).from(agentCustomerCounts).where(eq(agentCustomerCounts.agentId, agentId));
}

/** How many orders the customer (a scalar subquery of its id) has; no row when none. */
export function customerOrderCount(db: Compiler, customerId: SQL) {
  return db.select({ total: customerOrderCounts.n }).from(customerOrderCounts).where(eq(customerOrderCounts.customerId, customerId));
}
