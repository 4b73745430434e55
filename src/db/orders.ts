// The orders' queries: a page of a customer's orders with their lines, invoices, agents and last
// status, in one round trip.
import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
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
import type { Database } from "./database.ts";
import type { Page } from "../lib/pagination.ts";
import { selectCustomersWithAddress } from "./customers.ts";
import { AFTER, type Compiler, compiled, PAGE, pageValues, runBatch } from "./compiled.ts";
import { as } from "./columns.ts";

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

/**
 * The orders after a cursor's (date, id), newest first: those of an earlier date, and those of the
 * same date with a lower id. `date <= ?` is the bound that orders_customer_date_idx (customer_id,
 * date, id) seeks on, so the page reads from the cursor's place on, not from the newest order.
 */
const afterCursor = () =>
  and(lte(orders.date, AFTER.date), or(lt(orders.date, AFTER.date), and(eq(orders.date, AFTER.date), lt(orders.id, AFTER.id))))!;

/**
 * The five statements of an orders page, with placeholders for the phone, the date bounds and the
 * page. A date bound that the request does not give is left out of the SQL rather than bound to an
 * open value, so each combination of bounds is its own compiled set; so is a seek (the page right
 * after a cursor's order) against an offset.
 */
function ordersPageQueries(db: Compiler, range: { from: boolean; to: boolean }, seek: boolean, agent: boolean) {
  const phoneKey = sql.placeholder("phoneKey");
  // With an agent, another agent's customer is not found at all: the same empty answer as an
  // unknown number, from the same statements (no row is read and then dropped).
  const theCustomer = agent
    ? and(eq(customers.phoneKey, phoneKey), eq(customers.salesagentId, sql.placeholder("agentId")))!
    : eq(customers.phoneKey, phoneKey);
  const customerId = db.select({ id: customers.id }).from(customers).where(theCustomer);
  const conditions: SQL[] = [eq(orders.customerId, sql`(${customerId})`)];
  if (range.from) conditions.push(gte(orders.date, sql.placeholder("from")));
  if (range.to) conditions.push(lte(orders.date, sql.placeholder("to")));
  const where = and(...conditions);
  const pageWhere = seek ? and(where, afterCursor()) : where;
  const ordered = db.select({ id: orders.id }).from(orders).where(pageWhere).orderBy(desc(orders.date), desc(orders.id)).limit(PAGE.limit);
  // The ids of the page, for the statements of its lines and invoices.
  const pageIds = seek ? ordered : ordered.offset(PAGE.offset);
  const pageRows = db
    .select({
      id: as(orders.id, "o_id"),
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
    })
    .from(orders)
    .leftJoin(salesAgents, eq(salesAgents.id, orders.salesagentId))
    .leftJoin(deliveryAgents, eq(deliveryAgents.id, orders.deliveryagentId))
    // The page itself rather than `id IN (page ids)`: SQLite walks orders_customer_date_idx in
    // the page's order and stops at its end, with no sort and no second pass over the ids.
    .where(pageWhere)
    .orderBy(desc(orders.date), desc(orders.id))
    .limit(PAGE.limit);
  return {
    customer: selectCustomersWithAddress(db, theCustomer).prepare(),
    total: db.select({ total: count() }).from(orders).where(where).prepare(),
    orders: (seek ? pageRows : pageRows.offset(PAGE.offset)).prepare(),
    items: db
      .select({
        orderId: orderItems.orderId,
        id: products.id,
        sku: products.sku,
        name: products.name,
        quantity: orderItems.quantity,
        price: orderItems.price,
      })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(inArray(orderItems.orderId, pageIds))
      .orderBy(asc(orderItems.orderId), asc(orderItems.lineNo))
      .prepare(),
    invoices: db
      .select({
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
      })
      .from(invoices)
      .where(inArray(invoices.orderId, pageIds))
      .orderBy(asc(invoices.orderId), asc(invoices.date), asc(invoices.id))
      .prepare(),
  };
}

const ordersPageSet = (seek: boolean, agent: boolean) => ({
  all: compiled((db) => ordersPageQueries(db, { from: false, to: false }, seek, agent)),
  from: compiled((db) => ordersPageQueries(db, { from: true, to: false }, seek, agent)),
  to: compiled((db) => ordersPageQueries(db, { from: false, to: true }, seek, agent)),
  between: compiled((db) => ordersPageQueries(db, { from: true, to: true }, seek, agent)),
});
const ordersPage = {
  offset: ordersPageSet(false, false),
  seek: ordersPageSet(true, false),
  agentOffset: ordersPageSet(false, true),
  agentSeek: ordersPageSet(true, true),
};

/** The five statements of an orders page, bound to the request's values (also run by `npm run bench`'s page floor). */
export function ordersPageStatements(filter: OrderFilter, page: Page) {
  const agentId = filter.agentId ?? null;
  const set =
    agentId === null ? (page.after ? ordersPage.seek : ordersPage.offset) : page.after ? ordersPage.agentSeek : ordersPage.agentOffset;
  const q = (filter.from ? (filter.to ? set.between : set.from) : filter.to ? set.to : set.all)();
  const values = { ...pageValues(page), phoneKey: filter.phoneKey, from: filter.from, to: filter.to, agentId: agentId ?? undefined };
  return [q.customer.bind(values), q.total.bind(values), q.orders.bind(values), q.items.bind(values), q.invoices.bind(values)] as const;
}

/**
 * One page of a customer's orders, found by normalized phone, with the rows each order carries:
 * five statements in one db.batch(), so one D1 round trip whatever the page size. The rows of its
 * lines and invoices come ordered by order id; src/orders/answer.ts puts them together. Returns null
 * when no customer has that number (with an agent: no customer of that agent).
 */
export async function findOrdersByPhone(db: Database, filter: OrderFilter, page: Page) {
  const [customerRows, totalRows, orders, items, invoices] = await runBatch(db, ordersPageStatements(filter, page));
  const customer = customerRows[0];
  if (!customer) return null;
  return { customer, total: totalRows[0]?.total ?? 0, orders, items, invoices };
}

export type OrdersPageRows = NonNullable<Awaited<ReturnType<typeof findOrdersByPhone>>>;
