import { asc, count, eq, sql, type SQL } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";
import type { Database } from "../middleware/services.ts";
import type { Page } from "../lib/pagination.ts";
import { compiled, runBatch } from "./compiled.ts";
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
    .limit(sql.placeholder("count"))
    .offset(sql.placeholder("skip"))
    .prepare(),
}));

/** A page of customers by id, and the total: one D1 round trip. */
export async function listCustomers(db: Database, page: Page) {
  const q = customersPage();
  const [totalRows, rows] = await runBatch(db, [q.total.bind(), q.rows.bind({ count: page.count, skip: page.skip })]);
  return { total: totalRows[0]?.total ?? 0, customers: rows.map(toCustomer) };
}
