// The customers' queries: a customer with its whole address group, and a page of them.
import { and, asc, count, eq, gt, sql, type SQL } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";
import type { Database } from "./database.ts";
import type { Page } from "../lib/pagination.ts";
import { AFTER, type Compiler, compiled, PAGE, pageStatements, pageValues, runPage } from "./compiled.ts";
import { addressColumns, as, customerColumns } from "./columns.ts";
import { keptTotal } from "./totals.ts";

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

/** A page by offset, or (seek) the rows right after a cursor's id: reads only the page's rows. */
function customersPageQueries(db: Compiler, seek: boolean) {
  const rows = seek
    ? selectCustomersWithAddress(db, gt(customers.id, AFTER.id)).orderBy(asc(customers.id)).limit(PAGE.limit)
    : selectCustomersWithAddress(db).orderBy(asc(customers.id)).limit(PAGE.limit).offset(PAGE.offset);
  return { total: keptTotal(db, "customers"), rows: rows.prepare() };
}

/** The sales agent of an agent-bound key's listing. */
const AGENT = sql.placeholder("agentId");

/**
 * One agent's customers (an agent-bound key's book): the page and its total in the same statements'
 * shape, both on customers_salesagent_idx (salesagent_id, id). The total counts the agent's entries
 * of the index (that agent's customers once, never the table); the page walks the index from the
 * offset or from right after the cursor's id, in id order.
 */
function agentCustomersPageQueries(db: Compiler, seek: boolean) {
  const ofAgent = eq(customers.salesagentId, AGENT);
  const rows = seek
    ? selectCustomersWithAddress(db, and(ofAgent, gt(customers.id, AFTER.id))).orderBy(asc(customers.id)).limit(PAGE.limit)
    : selectCustomersWithAddress(db, ofAgent).orderBy(asc(customers.id)).limit(PAGE.limit).offset(PAGE.offset);
  return { total: db.select({ total: count() }).from(customers).where(ofAgent).prepare(), rows: rows.prepare() };
}

const customersPage = {
  offset: compiled((db) => customersPageQueries(db, false)),
  seek: compiled((db) => customersPageQueries(db, true)),
  agentOffset: compiled((db) => agentCustomersPageQueries(db, false)),
  agentSeek: compiled((db) => agentCustomersPageQueries(db, true)),
};

/**
 * The statements of a customers page, bound: the total and the rows (also run by `npm run bench`'s
 * page floor). With an agent, only that agent's customers (an agent-bound key).
 */
export function customersPageStatements(page: Page, agentId: number | null = null) {
  if (agentId !== null) {
    const q = (page.after ? customersPage.agentSeek : customersPage.agentOffset)();
    return pageStatements(q, { ...pageValues(page), agentId });
  }
  return pageStatements((page.after ? customersPage.seek : customersPage.offset)(), pageValues(page));
}

/** A page of customers (rows) by id, and the total, of every customer or of one agent's: one D1 round trip. */
export function listCustomers(db: Database, page: Page, agentId: number | null = null) {
  return runPage(db, customersPageStatements(page, agentId));
}
