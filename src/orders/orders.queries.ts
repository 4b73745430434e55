// The orders' queries: a page of a customer's orders with their lines, invoices, agents and last
// status, in one round trip.
import { and, count, desc, eq, gte, is, lt, lte, or, SQL, sql } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { TypedQueryBuilder } from "drizzle-orm/query-builders/query-builder";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  customers,
  deliveryAgents,
  invoices,
  orderItems,
  orderStatuses,
  orders,
  products,
  salesAgents,
} from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import type { Page } from "../platform/paging/pagination.ts";
import { selectCustomersAs, shownCustomerJsonColumns } from "../customers/customers.queries.ts";
import * as cq from "../platform/db/compiled.ts";
import { asJavaScriptWrites, jsonNumber } from "../platform/db/json-text.ts";
import { customerOrderCount } from "../platform/db/totals.ts";
import { as } from "../platform/db/columns.ts";

export interface OrderFilter {
  phoneKey: string;
  /** An agent-bound key's agent: the number is looked for among that agent's customers only. */
  agentId?: number | null;
  /** Inclusive bounds, yyyy-mm-dd. */
  from?: string;
  to?: string;
}

// Latest status by time; on a tie, the one recorded later.
const lastStatus = sql<string | null>`(select ${orderStatuses.name} from ${orderStatuses}
    where ${orderStatuses.orderId} = ${orders.id}
    order by ${orderStatuses.at} desc, ${orderStatuses.seq} desc limit 1)`;

const FROM = sql.placeholder("from");
const TO = sql.placeholder("to");

// `date <= ?` is the bound orders_customer_date_idx seeks on, so the page reads from the cursor's place on;
// with to_date the smaller date, since SQLite seeks on one upper bound and might read from to_date down.
const afterCursor = (to: boolean) =>
  and(
    lte(orders.date, to ? sql`min(${TO}, ${cq.AFTER.date})` : cq.AFTER.date),
    or(lt(orders.date, cq.AFTER.date), and(eq(orders.date, cq.AFTER.date), lt(orders.id, cq.AFTER.id))),
  )!;

const orderColumns = {
  id: as(orders.id, "o_id"),
  customerId: as(orders.customerId, "o_customer_id"),
  orderNo: as(orders.orderNo, "o_order_no"),
  itemTotalAmount: as(orders.itemTotalAmount, "o_item_total_amount"),
  discountAmount: as(orders.discountAmount, "o_discount_amount"),
  returnTotalAmount: as(orders.returnTotalAmount, "o_return_total_amount"),
  billableAmount: as(orders.billableAmount, "o_billable_amount"),
  date: as(orders.date, "o_date"),
  lastStatus: lastStatus.as("o_last_status"),
  saId: as(salesAgents.id, "sa_id"),
  saFirstName: as(salesAgents.firstName, "sa_first_name"),
  saLastName: as(salesAgents.lastName, "sa_last_name"),
  saMobileNumber: as(salesAgents.mobileNumber, "sa_mobile_number"),
  saAvatar: as(salesAgents.avatar, "sa_avatar"),
  saEmail: as(salesAgents.email, "sa_email"),
  daId: as(deliveryAgents.id, "da_id"),
  daFirstName: as(deliveryAgents.firstName, "da_first_name"),
  daLastName: as(deliveryAgents.lastName, "da_last_name"),
  daPhoneNumber: as(deliveryAgents.phoneNumber, "da_phone_number"),
};

const itemColumns = {
  orderId: orderItems.orderId,
  id: products.id,
  sku: products.sku,
  name: products.name,
  quantity: orderItems.quantity,
  price: orderItems.price,
};

const invoiceColumns = {
  orderId: invoices.orderId,
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  date: invoices.date,
  dueDate: invoices.dueDate,
  totalAmount: invoices.totalAmount,
  discountAmount: invoices.discountAmount,
  returnedAmount: invoices.returnedAmount,
  invoiceAmount: invoices.invoiceAmount,
  cgst: invoices.cgst,
  sgst: invoices.sgst,
  igst: invoices.igst,
};

// An absent date bound is left out of the SQL, not bound to an open value, so each combination of bounds
// and page mode is its own compiled set. Totals and ids: docs/specification.md section 4.
function ordersPageQueries(db: cq.Compiler, range: { from: boolean; to: boolean }, mode: cq.PageMode, agent: boolean) {
  const phoneKey = sql.placeholder("phoneKey");
  // With an agent, another agent's customer is not found at all: the same empty answer as an unknown
  // number, from the same statements reading the same rows (docs/specification.md section 6). The
  // number is a miss in customers_salesagent_phone_idx in both cases; the planner would take the
  // phone's unique index instead, which reads the other agent's row to reject it.
  const customerId = agent
    ? sql`(select ${customers.id} from ${customers} indexed by customers_salesagent_phone_idx
        where ${customers.salesagentId} = ${sql.placeholder("agentId")} and ${customers.phoneKey} = ${phoneKey})`
    : sql`(${db.select({ id: customers.id }).from(customers).where(eq(customers.phoneKey, phoneKey))})`;
  const theCustomer = agent ? eq(customers.id, customerId) : eq(customers.phoneKey, phoneKey);
  const sinceFrom = and(eq(orders.customerId, customerId), range.from ? gte(orders.date, FROM) : undefined);
  const where = and(sinceFrom, range.to ? lte(orders.date, TO) : undefined);
  const kept = customerOrderCount(db, customerId);
  const ids = db
    .select({ id: orders.id })
    .from(orders)
    .where(mode === "seek" ? and(sinceFrom, afterCursor(range.to)) : where)
    .orderBy(desc(orders.date), desc(orders.id));
  return {
    customer: selectCustomersAs(db, shownCustomerJsonColumns, theCustomer).prepare(),
    total: (range.from || range.to ? db.select({ total: count() }).from(orders).where(where) : kept).prepare(),
    page: pageJson(
      db,
      mode === "offset"
        ? ids.limit(cq.limitWithin(kept, cq.PAGE.limit)).offset(cq.PAGE.offset)
        : ids.limit(cq.PAGE.limit),
    ).prepare(),
  };
}

/** One kind's share of pageRows' union: prefixed so the kinds' keys do not collide; null in the others' rows. */
function share<P extends string, T extends Record<string, SQLiteColumn | SQL.Aliased>>(
  prefix: P,
  columns: T,
  present: boolean,
) {
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => {
      const value = present ? sql`${is(column, SQL.Aliased) ? column.sql : column}` : sql`null`;
      return [prefix + key, value.as(prefix + key)];
    }),
  ) as { [K in keyof T & string as `${P}${K}`]: SQL.Aliased<unknown> };
}

// Orders, lines and invoices in one union over page ids found once: three statements would each read the
// skipped orders. No ORDER BY: sorting would read every row of the answer once more; pageOf sorts.
function pageRows(db: cq.Compiler, ids: TypedQueryBuilder<{ id: typeof orders.id }>) {
  const pageIds = db.$with("page_ids").as(ids);
  const columns = (kind: 0 | 1 | 2) => ({
    kind: sql<number>`${sql.raw(String(kind))}`.as("kind"),
    ...share("o_", orderColumns, kind === 0),
    ...share("i_", { ...itemColumns, lineNo: orderItems.lineNo }, kind === 1),
    ...share("v_", invoiceColumns, kind === 2),
  });
  // CROSS JOIN keeps page_ids the outer loop in SQLite (the ids, then each one's rows); left to
  // itself, the planner scans order_items and invoices whole and looks each row up in page_ids.
  return db
    .with(pageIds)
    .select(columns(0))
    .from(pageIds)
    .crossJoin(orders)
    .leftJoin(salesAgents, eq(salesAgents.id, orders.salesagentId))
    .leftJoin(deliveryAgents, eq(deliveryAgents.id, orders.deliveryagentId))
    .where(eq(orders.id, pageIds.id))
    .unionAll(
      db
        .select(columns(1))
        .from(pageIds)
        .crossJoin(orderItems)
        .innerJoin(products, eq(products.id, orderItems.productId))
        .where(eq(orderItems.orderId, pageIds.id)),
    )
    .unionAll(db.select(columns(2)).from(pageIds).crossJoin(invoices).where(eq(invoices.orderId, pageIds.id)));
}

// An order's answer as SQLite writes it (json-text.ts), in two parts around what its customer shows
// (`customer`, `address`), which the customer's own statement writes once for the page: the keys of
// orders.serialize.ts in its order. Lines and invoices come in their indexes' order, so nothing is sorted.
const headJson = sql<string>`json_object('id', ${orders.id}, 'order_no', ${orders.orderNo},
  'item_total_amount', ${jsonNumber(orders.itemTotalAmount)}, 'discount_amount', ${jsonNumber(orders.discountAmount)},
  'return_total_amount', ${jsonNumber(orders.returnTotalAmount)}, 'billable_amount', ${jsonNumber(orders.billableAmount)},
  'date', ${orders.date},
  'products', (select json_group_array(json_object('id', id, 'sku', sku, 'name', name, 'quantity', quantity, 'price', price))
    from (select ${products.id} as id, ${products.sku} as sku, ${products.name} as name, ${orderItems.quantity} as quantity,
        ${jsonNumber(orderItems.price)} as price
      from ${orderItems} join ${products} on ${products.id} = ${orderItems.productId}
      where ${orderItems.orderId} = ${orders.id} order by ${orderItems.lineNo})))`;

const tailJson = sql<string>`json_object(
  'salesagent', case when ${salesAgents.id} is null then json_array() else json_object('id', ${salesAgents.id},
    'first_name', ${salesAgents.firstName}, 'last_name', ${salesAgents.lastName},
    'mobile_number', ${salesAgents.mobileNumber}, 'avatar', ${salesAgents.avatar}, 'email', ${salesAgents.email}) end,
  'deliveryagent', case when ${deliveryAgents.id} is null then null else json_object('id', ${deliveryAgents.id},
    'first_name', ${deliveryAgents.firstName}, 'last_name', ${deliveryAgents.lastName},
    'phone_number', ${deliveryAgents.phoneNumber}) end,
  'laststatus', (select json_object('name', ${orderStatuses.name}) from ${orderStatuses}
    where ${orderStatuses.orderId} = ${orders.id} order by ${orderStatuses.at} desc, ${orderStatuses.seq} desc limit 1),
  'invoices', (select json_group_array(json_object('id', id, 'invoice_number', invoice_number, 'date', date,
      'due_date', due_date, 'total_amount', total_amount, 'discount_amount', discount_amount,
      'returned_amount', returned_amount, 'invoice_amount', invoice_amount, 'cgst', cgst, 'sgst', sgst, 'igst', igst))
    from (select ${invoices.id} as id, ${invoices.invoiceNumber} as invoice_number, ${invoices.date} as date,
        ${invoices.dueDate} as due_date, ${jsonNumber(invoices.totalAmount)} as total_amount,
        ${jsonNumber(invoices.discountAmount)} as discount_amount, ${jsonNumber(invoices.returnedAmount)} as returned_amount,
        ${jsonNumber(invoices.invoiceAmount)} as invoice_amount, ${jsonNumber(invoices.cgst)} as cgst,
        ${jsonNumber(invoices.sgst)} as sgst, ${jsonNumber(invoices.igst)} as igst
      from ${invoices} where ${invoices.orderId} = ${orders.id} order by ${invoices.date}, ${invoices.id})))`;

/** The page's orders as JSON, one row each, over page ids found once. No ORDER BY: orderedJson sorts. */
function pageJson(db: cq.Compiler, ids: TypedQueryBuilder<{ id: typeof orders.id }>) {
  const pageIds = db.$with("page_ids").as(ids);
  // CROSS JOIN keeps page_ids the outer loop in SQLite: the ids, then each one's rows.
  return db
    .with(pageIds)
    .select({
      id: orders.id,
      date: orders.date,
      customerId: orders.customerId,
      head: headJson.as("head"),
      tail: tailJson.as("tail"),
    })
    .from(pageIds)
    .crossJoin(orders)
    .leftJoin(salesAgents, eq(salesAgents.id, orders.salesagentId))
    .leftJoin(deliveryAgents, eq(deliveryAgents.id, orders.deliveryagentId))
    .where(eq(orders.id, pageIds.id));
}

export interface OrderJsonRow {
  id: number;
  date: string;
  customerId: number;
  head: string;
  tail: string;
}

/** What an order shows of its customer, as JSON text (customers.queries.ts, shownCustomerJsonColumns). */
export interface ShownCustomerJson {
  customer: string;
  address: string;
}

/** An order's answer: its two parts with its customer's between them, numbers as JavaScript writes them. */
export function orderJson(row: OrderJsonRow, shown: ShownCustomerJson): string {
  const head = asJavaScriptWrites(row.head);
  const tail = asJavaScriptWrites(row.tail);
  return `${head.slice(0, -1)},"customer":${shown.customer},"address":${shown.address},${tail.slice(1)}`;
}

/** By date descending, then id descending: the listing's order. */
export function orderedJson(rows: OrderJsonRow[]): OrderJsonRow[] {
  return rows.sort((a, b) => ascending(b.date, a.date) || ascending(b.id, a.id));
}

function unshare<Row>(rows: Record<string, unknown>[], kind: number, prefix: string): Row[] {
  return rows
    .filter((row) => row.kind === kind)
    .map((row) => {
      const out: Record<string, unknown> = {};
      for (const key in row) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = row[key];
      return out as Row;
    });
}

const ascending = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

function pageOf(rows: Record<string, unknown>[]) {
  const orders = unshare<SelectResultFields<typeof orderColumns>>(rows, 0, "o_");
  const items = unshare<SelectResultFields<typeof itemColumns> & { lineNo: number }>(rows, 1, "i_");
  const invoices = unshare<SelectResultFields<typeof invoiceColumns>>(rows, 2, "v_");
  orders.sort((a, b) => ascending(b.date!, a.date!) || ascending(b.id!, a.id!));
  items.sort((a, b) => ascending(a.orderId, b.orderId) || ascending(a.lineNo, b.lineNo));
  invoices.sort((a, b) => ascending(a.orderId, b.orderId) || ascending(a.date, b.date) || ascending(a.id, b.id));
  return { orders, items, invoices };
}

function byRange(mode: cq.PageMode, agent: boolean) {
  return {
    all: cq.compiled((db) => ordersPageQueries(db, { from: false, to: false }, mode, agent)),
    from: cq.compiled((db) => ordersPageQueries(db, { from: true, to: false }, mode, agent)),
    to: cq.compiled((db) => ordersPageQueries(db, { from: false, to: true }, mode, agent)),
    between: cq.compiled((db) => ordersPageQueries(db, { from: true, to: true }, mode, agent)),
  };
}
const byMode = (agent: boolean) => ({
  first: byRange("first", agent),
  offset: byRange("offset", agent),
  seek: byRange("seek", agent),
});
const ordersPage = { all: byMode(false), agent: byMode(true) };

/** Exported for `npm run bench`'s page floor too. */
export function ordersPageStatements(filter: OrderFilter, page: Page) {
  const agentId = filter.agentId ?? null;
  const range = filter.from ? (filter.to ? "between" : "from") : filter.to ? "to" : "all";
  const q = (agentId === null ? ordersPage.all : ordersPage.agent)[cq.pageMode(page)][range]();
  const values = {
    ...cq.pageValues(page),
    phoneKey: filter.phoneKey,
    from: filter.from,
    to: filter.to,
    agentId: agentId ?? undefined,
  };
  return [q.customer.bind(values), q.total.bind(values), q.page.bind(values)] as const;
}

/**
 * One D1 round trip whatever the page size; null when no customer (of the key's agent) has the number.
 * The orders come as JSON text (orderJson), in the listing's order.
 */
export async function findOrdersByPhone(db: Database, filter: OrderFilter, page: Page) {
  const [customerRows, totalRows, rows] = await cq.runBatch(db, ordersPageStatements(filter, page));
  const customer = customerRows[0];
  if (!customer) return null;
  return { customer, total: totalRows[0]?.total ?? 0, orders: orderedJson(rows as OrderJsonRow[]) };
}

// An agent's orders by id, for sync (docs/specification.md section 8): the page's own statement, so that a
// record is exactly the listing's item. Orders of other agents' customers are left out.
function ordersOfAgentByIds(db: cq.Compiler) {
  return db
    .select({ id: orders.id })
    .from(sql`json_each(${sql.placeholder("ids")})`)
    .crossJoin(orders)
    .crossJoin(customers)
    .where(
      and(
        eq(orders.id, sql`value`),
        eq(customers.id, orders.customerId),
        // Kept off customers_salesagent_idx (unary +), so that the ids drive the join.
        eq(sql`+${customers.salesagentId}`, sql.placeholder("agentId")),
      ),
    );
}

const ordersByIds = cq.compiled((db) => ({ rows: pageRows(db, ordersOfAgentByIds(db)).prepare() }));
const ordersJsonByIds = cq.compiled((db) => ({ rows: pageJson(db, ordersOfAgentByIds(db)).prepare() }));

/** The orders as JSON text (orderJson), in no particular order. */
export function ordersJsonByIdsStatement(ids: Iterable<number>, agentId: number) {
  return ordersJsonByIds().rows.bind({ ids: cq.idsValue(ids), agentId });
}

export function ordersByIdsStatement(ids: Iterable<number>, agentId: number) {
  const q = ordersByIds().rows;
  const bound = q.bind({ ids: cq.idsValue(ids), agentId });
  return { ...bound, map: (result: D1Result) => pageOf(bound.map(result)) };
}

export type OrderRowsById = ReturnType<typeof pageOf>;
