// The customers' queries: a customer with its whole address group, and a page of them.
import { and, asc, eq, gt, gte, sql, type SQL } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import type { Page } from "../platform/paging/pagination.ts";
import {
  AFTER,
  type Compiler,
  compiled,
  limitWithin,
  PAGE,
  pageMode,
  type PageMode,
  pageStatements,
  pageValues,
  runPage,
} from "../platform/db/compiled.ts";
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

const AGENT = sql.placeholder("agentId");

// By offset, the first id is found in the listing's own index, so only the page's rows are joined
// (docs/specification.md section 4).
function customersPageQueries(db: Compiler, mode: PageMode, agent: boolean) {
  const ofAgent = agent ? eq(customers.salesagentId, AGENT) : undefined;
  const kept = agent ? agentCustomerCount(db, AGENT) : keptCount(db, "customers");
  let from: SQL | undefined;
  if (mode === "seek") from = gt(customers.id, AFTER.id);
  if (mode === "offset") {
    const firstId = db
      .select({ id: customers.id })
      .from(customers)
      .where(ofAgent)
      .orderBy(asc(customers.id))
      .limit(limitWithin(kept, 1))
      .offset(PAGE.offset);
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

/** Exported for `npm run bench`'s page floor too. */
export function customersPageStatements(page: Page, agentId: number | null = null) {
  const q = (agentId === null ? customersPage.all : customersPage.agent)[pageMode(page)]();
  return pageStatements(q, { ...pageValues(page), agentId: agentId ?? undefined });
}

export function listCustomers(db: Database, page: Page, agentId: number | null = null) {
  return runPage(db, customersPageStatements(page, agentId));
}
