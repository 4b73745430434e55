// The customers' queries: a customer with its whole address group, and a page of them.
import { asc, eq, gt, type SQL } from "drizzle-orm";
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

const customersPage = {
  offset: compiled((db) => customersPageQueries(db, false)),
  seek: compiled((db) => customersPageQueries(db, true)),
};

/** The statements of a customers page, bound: the total and the rows (also run by `npm run bench`'s page floor). */
export function customersPageStatements(page: Page) {
  return pageStatements((page.after ? customersPage.seek : customersPage.offset)(), pageValues(page));
}

/** A page of customers (rows) by id, and the total: one D1 round trip. */
export function listCustomers(db: Database, page: Page) {
  return runPage(db, customersPageStatements(page));
}
