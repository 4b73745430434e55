// The customers' queries: a customer with its whole address group, and a page of them.
import { and, asc, eq, gt, gte, type Placeholder, sql, type SQL } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import type { Page } from "../platform/paging/pagination.ts";
import * as cq from "../platform/db/compiled.ts";
import { addressColumns, as, customerColumns } from "../platform/db/columns.ts";
import { agentCustomerCount, keptCount } from "../platform/db/totals.ts";
import type { SelectedFields } from "drizzle-orm/sqlite-core";
type Compiler = cq.Compiler;

const withAddressColumns = {
  ...customerColumns,
  status: as(customers.status, "c_status"),
  approval: as(customers.approval, "c_approval"),
  ...addressColumns,
};

// The customer's answer as SQLite writes it (json-text.ts): the keys of customers.serialize.ts in its
// order, `[]` for no address (the left join found none), "" for a missing addressline2 or area_code.
const addressJson = sql<string>`case when ${customerAddresses.customerId} is null then json_array() else json_object(
  'addressline1', ${customerAddresses.addressline1}, 'addressline2', coalesce(${customerAddresses.addressline2}, ''),
  'area', json_object('id', ${areas.id}, 'name', ${areas.name}, 'area_code', coalesce(${areas.areaCode}, ''),
    'city', json_object('id', ${cities.id}, 'name', ${cities.name}, 'code', ${cities.code},
      'state', json_object('id', ${states.id}, 'code', ${states.code}, 'name', ${states.name}))),
  'postalcode', json_object('id', ${postalCodes.id}, 'code', ${postalCodes.code})) end`;
const fieldsJson = sql`'id', ${customers.id}, 'contact_person_name', ${customers.contactPersonName},
  'company_name', ${customers.companyName}, 'display_name', ${customers.displayName}, 'email', ${customers.email},
  'contactperson_number', ${customers.contactpersonNumber}, 'company_phone', ${customers.companyPhone},
  'gst_treatment', ${customers.gstTreatment}, 'gstin', ${customers.gstin}, 'customer_code', ${customers.customerCode}`;

/** A customers page's item (toCustomer). */
export const customerJsonColumns = {
  id: customers.id,
  json: sql<string>`json_object(${fieldsJson}, 'status', ${customers.status}, 'approval', ${customers.approval},
    'address', ${addressJson})`.as("json"),
};

/** What each order of the customer shows of it (shownCustomer): `customer` with its address, and `address`. */
export const shownCustomerJsonColumns = {
  id: customers.id,
  customer: sql<string>`json_object(${fieldsJson}, 'address', ${addressJson})`.as("customer"),
  address: addressJson.as("address"),
  /** `customer` without its address, for a caller that writes the address in once (the orders page). */
  fields: sql<string>`json_object(${fieldsJson})`.as("fields"),
};

/**
 * Customers with their whole address group, in one statement; the caller adds order and limits. With
 * `ids` (a JSON array, cq.idList), the list drives the join: one row read an id, where `id IN (list)`
 * reads three and the planner may prefer an index that reads far more.
 */
export function selectCustomersWithAddress(db: Database | cq.Compiler, where?: SQL, ids?: Placeholder) {
  return selectCustomersAs(db, withAddressColumns, where, ids);
}

/** The same rows with other columns (a customer's JSON). */
export function selectCustomersAs<S extends SelectedFields>(
  db: Database | cq.Compiler,
  columns: S,
  where?: SQL,
  ids?: Placeholder,
) {
  const select = db.select(columns);
  // The cast only forgets that json_each is in the FROM too: the selected columns, and so the rows, are the same.
  const from = ids
    ? (select.from(sql`json_each(${ids})`).crossJoin(customers) as unknown as ReturnType<
        typeof select.from<typeof customers>
      >)
    : select.from(customers);
  // Typed as the bare FROM: with the columns named, joins leave the rows' type as it is.
  const joined = (from as unknown as ReturnType<ReturnType<Compiler["select"]>["from"]>)
    .leftJoin(customerAddresses, eq(customerAddresses.customerId, customers.id))
    .leftJoin(areas, eq(areas.id, customerAddresses.areaId))
    .leftJoin(cities, eq(cities.id, areas.cityId))
    .leftJoin(states, eq(states.id, cities.stateId))
    .leftJoin(postalCodes, eq(postalCodes.id, customerAddresses.postalcodeId))
    .where(ids ? and(eq(customers.id, sql`value`), where) : where);
  return joined as unknown as ReturnType<typeof from.where>;
}

export type CustomerWithAddressRow = Awaited<ReturnType<typeof selectCustomersWithAddress>>[number];

const AGENT = sql.placeholder("agentId");

// By offset, the first id is found in the listing's own index, so only the page's rows are joined
// (docs/specification.md section 4).
function customersPageQueries(db: cq.Compiler, mode: cq.PageMode, agent: boolean) {
  const ofAgent = agent ? eq(customers.salesagentId, AGENT) : undefined;
  const kept = agent ? agentCustomerCount(db, AGENT) : keptCount(db, "customers");
  let from: SQL | undefined;
  if (mode === "seek") from = gt(customers.id, cq.AFTER.id);
  if (mode === "offset") {
    const firstId = db
      .select({ id: customers.id })
      .from(customers)
      .where(ofAgent)
      .orderBy(asc(customers.id))
      .limit(cq.limitWithin(kept, 1))
      .offset(cq.PAGE.offset);
    from = gte(customers.id, firstId);
  }
  const page = selectCustomersAs(db, customerJsonColumns, and(ofAgent, from))
    .orderBy(asc(customers.id))
    .limit(cq.PAGE.limit)
    .as("page");
  // One statement, one row: the total, the page's customers as one JSON array's text in id order, their ids.
  const columns = {
    total: sql<number | null>`(${kept})`.as("total"),
    customers: sql<string>`'[' || coalesce(group_concat(${page.json}, ','), '') || ']'`.as("customers"),
    ids: sql<string>`json_group_array(${page.id})`.as("ids"),
  };
  return { page: db.select(columns).from(page).prepare() };
}

const modes = (agent: boolean) => ({
  first: cq.compiled((db) => customersPageQueries(db, "first", agent)),
  offset: cq.compiled((db) => customersPageQueries(db, "offset", agent)),
  seek: cq.compiled((db) => customersPageQueries(db, "seek", agent)),
});
const customersPage = { all: modes(false), agent: modes(true) };

/** Exported for the tests that count what a page reads and check its plan. */
export function customersPageStatements(page: Page, agentId: number | null = null) {
  const q = (agentId === null ? customersPage.all : customersPage.agent)[cq.pageMode(page)]();
  return [q.page.bind({ ...cq.pageValues(page), agentId: agentId ?? undefined })] as const;
}

/** `customers`: the page as a JSON array's text (customers.serialize.ts's answers as SQLite writes them). */
export async function listCustomers(db: Database, page: Page, agentId: number | null = null) {
  const [[row]] = await cq.runBatch(db, customersPageStatements(page, agentId));
  return { total: row?.total ?? 0, customers: row?.customers ?? "[]", ids: JSON.parse(row?.ids ?? "[]") as number[] };
}

export type CustomerJsonRow = { id: number; json: string };

// An agent's customers by id as JSON text, for sync (docs/specification.md section 8): the record, and what
// each of its orders shows of it. Ids of other agents' customers are left out; the agent check is kept off
// customers_salesagent_idx (unary +), so that the ids drive the join.
const customersJsonByIds = cq.compiled((db) => ({
  rows: selectCustomersAs(
    db,
    { ...customerJsonColumns, customer: shownCustomerJsonColumns.customer, address: shownCustomerJsonColumns.address },
    eq(sql`+${customers.salesagentId}`, AGENT),
    sql.placeholder("ids"),
  ).prepare(),
}));

/** A customer's record (`json`), and what each of its orders shows of it (`customer`, `address`). */
export type CustomerJsonByIdRow = CustomerJsonRow & { customer: string; address: string };

export function customersJsonByIdsStatement(ids: Iterable<number>, agentId: number) {
  return customersJsonByIds().rows.bind({ ids: cq.idsValue(ids), agentId });
}
