// The customers' queries: a customer with its whole address group, and a page of them.
import { and, asc, eq, gt, gte, sql, type SQL } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import type { Page } from "../platform/paging/pagination.ts";
import { AFTER, type Compiler, compiled, limitWithin, PAGE, pageMode, type PageMode, pageStatements, pageValues, runPage } from "../platform/db/compiled.ts";
import { addressColumns, as, customerColumns } from "../platform/db/columns.ts";
import { agentCustomerCount, keptCount } from "../platform/db/totals.ts";

/** Customers with their whole address group, in one statement; the caller adds order and limits. */
export function selectCustomersWithAddress(db: Database, where?: SQL) {
  return db
    .select({
      ...customerColumns,
      status: as(customers.status, "c_status"),
      approval: as(customers.approval, "c_approval"),
      ...addressColumns,
    })
    .from(customers)
    .leftJoin(customerAddresses, eq(customerAddresses.customerId, customers.id))
    .leftJoin(areas, eq(areas.id, customerAddresses.areaId))
    .leftJoin(cities, eq(cities.id, areas.cityId))
    .leftJoin(states, eq(states.id, cities.stateId))
    .leftJoin(postalCodes, eq(postalCodes.id, customerAddresses.postalcodeId))
    .where(where);
}

export type CustomerWithAddressRow = Awaited<ReturnType<typeof selectCustomersWithAddress>>[number];

/** The sales agent of an agent-bound key's listing. */
const AGENT = sql.placeholder("agentId");

/**
 * A page of every customer, or (agent) of one agent's customers, by id, and its total: a kept count
 * (row_counts; the agent's in agent_customer_counts). By offset, the page's first id is found in
 * the listing's index (the primary key; customers_salesagent_idx for an agent), so only the page's
 * own rows are joined to their addresses.
 */
function customersPageQueries(db: Compiler, mode: PageMode, agent: boolean) {
  const ofAgent = agent ? eq(customers.salesagentId, AGENT) : undefined;
  const kept = agent ? agentCustomerCount(db, AGENT) : keptCount(db, "customers");
  let from: SQL | undefined;
  if (mode === "seek") from = gt(customers.id, AFTER.id);
  if (mode === "offset") {
    const firstId = db.select({ id: customers.id }).from(customers).where(ofAgent).orderBy(asc(customers.id)).limit(limitWithin(kept, 1)).offset(PAGE.offset);
    from = gte(customers.id, firstId);
  }
  const rows = selectCustomersWithAddress(db, and(ofAgent, from)).orderBy(asc(customers.id)).limit(PAGE.limit);
  return { total: kept.prepare(), rows: rows.prepare() };
}

const modes = (agent: boolean) => ({
  first: compiled((db) => customersPageQueries(db, "first", agent)),
  offset: compiled((db) => customersPageQueries(db, "offset", agent)),
  seek: compiled((db) => customersPageQueries(db, "seek", agent)),
});
const customersPage = { all: modes(false), agent: modes(true) };

/**
 * The statements of a customers page, bound: the total and the rows (also run by `npm run bench`'s
 * page floor). With an agent, only that agent's customers (an agent-bound key).
 */
export function customersPageStatements(page: Page, agentId: number | null = null) {
  const q = (agentId === null ? customersPage.all : customersPage.agent)[pageMode(page)]();
  return pageStatements(q, { ...pageValues(page), agentId: agentId ?? undefined });
}

/** A page of customers (rows) by id, and the total, of every customer or of one agent's: one D1 round trip. */
export function listCustomers(db: Database, page: Page, agentId: number | null = null) {
  return runPage(db, customersPageStatements(page, agentId));
}
