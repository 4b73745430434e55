// The orders' queries: a page of a customer's orders, and orders by id for sync, as JSON text.
import { and, count, desc, eq, gte, lt, lte, or, sql } from "drizzle-orm";
import type { TypedQueryBuilder } from "drizzle-orm/query-builders/query-builder";
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

const shown = shownCustomerJsonColumns;
/** Ends the page's keys before its orders: a control character, which SQLite's JSON never writes raw. */
const KEYS_END = 30;
/** Stands in each order of a page for its customer's part, written once a page (see findOrdersByPhone). */
const CUSTOMER_AT = 31;

export interface OrderFilter {
  phoneKey: string;
  /** An agent-bound key's agent: the number is looked for among that agent's customers only. */
  agentId?: number | null;
  /** Inclusive bounds, yyyy-mm-dd. */
  from?: string;
  to?: string;
}

const FROM = sql.placeholder("from");
const TO = sql.placeholder("to");

// `date <= ?` is the bound orders_customer_date_idx seeks on, so the page reads from the cursor's place on;
// with to_date the smaller date, since SQLite seeks on one upper bound and might read from to_date down.
const afterCursor = (to: boolean) =>
  and(
    lte(orders.date, to ? sql`min(${TO}, ${cq.AFTER.date})` : cq.AFTER.date),
    or(lt(orders.date, cq.AFTER.date), and(eq(orders.date, cq.AFTER.date), lt(orders.id, cq.AFTER.id))),
  )!;

// An absent date bound is left out of the SQL: each combination is its own statement (docs/specification.md section 4).
function ordersPageQuery(db: cq.Compiler, range: { from: boolean; to: boolean }, mode: cq.PageMode, agent: boolean) {
  const phoneKey = sql.placeholder("phoneKey");
  // With an agent, another agent's customer is a miss in customers_salesagent_phone_idx as an unknown number
  // is: the same rows read (docs/specification.md section 6). The phone's unique index would read the row.
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
  const page = pageJson(
    db,
    mode === "offset"
      ? ids.limit(cq.limitWithin(kept, cq.PAGE.limit)).offset(cq.PAGE.offset)
      : ids.limit(cq.PAGE.limit),
  ).as("page");
  const total = range.from || range.to ? db.select({ total: count() }).from(orders).where(where) : kept;
  // The page a FROM, not a join (D1 counts a join's rows again); each part named once (flattened, it is written twice).
  // The customer's part is the same in every order: written once, in its own column, not once an order.
  const order = sql`rtrim(${page.head}, '}') || char(${CUSTOMER_AT}) || ltrim(${page.tail}, '{')`;
  const list = db
    .select({
      text: sql<string>`json_group_array(json_array(${page.date}, ${page.id})) || char(${KEYS_END})
        || '[' || coalesce(group_concat(${order}, ','), '') || ']'`,
    })
    .from(page);
  const columns = {
    total: sql<number | null>`(${total})`.as("total"),
    list: sql<string>`(${list})`.as("list"),
    // The address once, not twice: each place it is written is more of the statement to compile and run.
    fields: shown.fields,
    address: shown.address,
  };
  return { page: selectCustomersAs(db, columns, theCustomer).prepare() };
}

// An order (json-text.ts) around its customer's part: head ends `]}`, tail starts `{"salesagent"`; nothing sorted.
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

/** The orders as JSON, one row each, over ids found once, in their order. */
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

function byRange(mode: cq.PageMode, agent: boolean) {
  return {
    all: cq.compiled((db) => ordersPageQuery(db, { from: false, to: false }, mode, agent)),
    from: cq.compiled((db) => ordersPageQuery(db, { from: true, to: false }, mode, agent)),
    to: cq.compiled((db) => ordersPageQuery(db, { from: false, to: true }, mode, agent)),
    between: cq.compiled((db) => ordersPageQuery(db, { from: true, to: true }, mode, agent)),
  };
}
const byMode = (agent: boolean) => ({
  first: byRange("first", agent),
  offset: byRange("offset", agent),
  seek: byRange("seek", agent),
});
const ordersPage = { all: byMode(false), agent: byMode(true) };

/** Exported for the tests that count what a page reads. */
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
  return [q.page.bind(values)] as const;
}

/** Null when no customer (of the key's agent) has the number; the orders as a JSON array's text. */
export async function findOrdersByPhone(db: Database, filter: OrderFilter, page: Page) {
  const [[row]] = await cq.runBatch(db, ordersPageStatements(filter, page));
  if (!row) return null;
  const end = row.list.indexOf(String.fromCharCode(KEYS_END));
  const keys = JSON.parse(row.list.slice(0, end)) as [date: string, id: number][];
  // json_object(fields, 'address', address) as SQLite writes it; split and join, since a `$` would be a replacement pattern.
  const customer = `,"customer":${row.fields.slice(0, -1)},"address":${row.address}},"address":${row.address},`;
  const orders = row.list
    .slice(end + 1)
    .split(String.fromCharCode(CUSTOMER_AT))
    .join(customer);
  return { total: row.total ?? 0, orders: asJavaScriptWrites(orders), keys };
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

const ordersJsonByIds = cq.compiled((db) => ({ rows: pageJson(db, ordersOfAgentByIds(db)).prepare() }));

/** The orders as JSON text (orderJson), in no particular order. */
export function ordersJsonByIdsStatement(ids: Iterable<number>, agentId: number) {
  return ordersJsonByIds().rows.bind({ ids: cq.idsValue(ids), agentId });
}
