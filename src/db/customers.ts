import { asc, count, eq, type SQL } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";
import type { Database } from "../middleware/services.ts";
import type { Page } from "../lib/pagination.ts";
import { compiled, PAGE, pageStatements, runPage } from "./compiled.ts";
import { addressColumns, as, customerColumns, toAddress, toCustomerFields } from "./shapes.ts";

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

export function toCustomer(row: CustomerWithAddressRow) {
  return {
    ...toCustomerFields(row),
    status: row.status as "Active" | "Inactive",
    approval: row.approval as "pending" | "accepted" | "rejected",
    address: toAddress(row),
  };
}

const customersPage = compiled((db) => ({
  total: db.select({ total: count() }).from(customers).prepare(),
  rows: selectCustomersWithAddress(db)
    .orderBy(asc(customers.id))
    .limit(PAGE.limit)
    .offset(PAGE.offset)
    .prepare(),
}));

/** The statements of a customers page, bound: the total and the rows (also run by `npm run bench`'s page floor). */
export function customersPageStatements(page: Page) {
  return pageStatements(customersPage(), { ...page });
}

/** A page of customers by id, and the total: one D1 round trip. */
export async function listCustomers(db: Database, page: Page) {
  const { total, rows } = await runPage(db, customersPageStatements(page));
  return { total, customers: rows.map(toCustomer) };
}
