// The reference that the answers SQLite writes as JSON text are compared with (test/platform/json-text.test.ts):
// the records read as flat rows and shaped in TypeScript, as the service did before its pages became JSON text.
import type { z } from "@hono/zod-openapi";
import { and, eq, is, SQL, sql } from "drizzle-orm";
import type { TypedQueryBuilder } from "drizzle-orm/query-builders/query-builder";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as schema from "../../drizzle/schema.ts";
import { selectCustomersWithAddress } from "../../src/customers/customers.queries.ts";
import { toAddress, toCustomerFields } from "../../src/customers/customers.serialize.ts";
import type { OrderSchema, OrderStatusName } from "../../src/orders/orders.schemas.ts";
import { as, type AddressRow, type CustomerRow } from "../../src/platform/db/columns.ts";
import * as cq from "../../src/platform/db/compiled.ts";

const { customers, deliveryAgents, invoices, orderItems, orderStatuses, orders, products, salesAgents } = schema;

export type Order = z.infer<typeof OrderSchema>;
export type ShownCustomer = Pick<Order, "customer" | "address">;

const lastStatus = sql<string | null>`(select ${orderStatuses.name} from ${orderStatuses}
    where ${orderStatuses.orderId} = ${orders.id}
    order by ${orderStatuses.at} desc, ${orderStatuses.seq} desc limit 1)`;

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

/** One kind's share of the union: prefixed so the kinds' keys do not collide; null in the others' rows. */
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

/** Orders, lines and invoices as flat rows, one union over the ids. */
function pageRows(db: cq.Compiler, ids: TypedQueryBuilder<{ id: typeof orders.id }>) {
  const pageIds = db.$with("page_ids").as(ids);
  const columns = (kind: 0 | 1 | 2) => ({
    kind: sql<number>`${sql.raw(String(kind))}`.as("kind"),
    ...share("o_", orderColumns, kind === 0),
    ...share("i_", { ...itemColumns, lineNo: orderItems.lineNo }, kind === 1),
    ...share("v_", invoiceColumns, kind === 2),
  });
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

export type OrderRowsById = ReturnType<typeof pageOf>;

const AGENT = sql.placeholder("agentId");
const IDS = sql.placeholder("ids");

const ordersByIds = cq.compiled((db) => {
  const ids = db
    .select({ id: orders.id })
    .from(sql`json_each(${IDS})`)
    .crossJoin(orders)
    .crossJoin(customers)
    .where(and(eq(orders.id, sql`value`), eq(customers.id, orders.customerId), eq(customers.salesagentId, AGENT)));
  return { rows: pageRows(db, ids).prepare() };
});

/** An agent's orders by id as rows, in the listing's order (date, then id, descending). */
export function ordersByIdsStatement(ids: Iterable<number>, agentId: number) {
  const bound = ordersByIds().rows.bind({ ids: cq.idsValue(ids), agentId });
  return { ...bound, map: (result: D1Result) => pageOf(bound.map(result)) };
}

const customersByIds = cq.compiled((db) => ({
  rows: selectCustomersWithAddress(db, eq(customers.salesagentId, AGENT), IDS).prepare(),
}));

/** An agent's customers by id as rows. */
export function customersByIdsStatement(ids: Iterable<number>, agentId: number) {
  return customersByIds().rows.bind({ ids: cq.idsValue(ids), agentId });
}

export function shownCustomer(row: CustomerRow & AddressRow): ShownCustomer {
  const address = toAddress(row);
  return { customer: { ...toCustomerFields(row), address }, address };
}

/** Orders shaped as the API shows them, `customerOf` as each shows its customer. */
export function ordersOf(
  rows: OrderRowsById,
  customerOf: (order: OrderRowsById["orders"][number]) => ShownCustomer,
): Order[] {
  const productsByOrder = groupBy(rows.items, (r) => r.orderId);
  const invoicesByOrder = groupBy(rows.invoices, (r) => r.orderId);
  return rows.orders.map((o) => ({
    id: o.id!,
    order_no: o.orderNo!,
    item_total_amount: o.itemTotalAmount!,
    discount_amount: o.discountAmount!,
    return_total_amount: o.returnTotalAmount!,
    billable_amount: o.billableAmount!,
    date: o.date!,
    products: (productsByOrder.get(o.id!) ?? []).map((p) => ({
      id: p.id,
      sku: p.sku,
      name: p.name,
      quantity: p.quantity,
      price: p.price,
    })),
    ...customerOf(o),
    salesagent:
      o.saId === null
        ? []
        : {
            id: o.saId,
            first_name: o.saFirstName!,
            last_name: o.saLastName!,
            mobile_number: o.saMobileNumber!,
            avatar: o.saAvatar,
            email: o.saEmail,
          },
    deliveryagent:
      o.daId === null
        ? null
        : { id: o.daId, first_name: o.daFirstName!, last_name: o.daLastName!, phone_number: o.daPhoneNumber! },
    laststatus: o.lastStatus === null ? null : { name: o.lastStatus as OrderStatusName },
    invoices: (invoicesByOrder.get(o.id!) ?? []).map((i) => ({
      id: i.id,
      invoice_number: i.invoiceNumber,
      date: i.date,
      due_date: i.dueDate,
      total_amount: i.totalAmount,
      discount_amount: i.discountAmount,
      returned_amount: i.returnedAmount,
      invoice_amount: i.invoiceAmount,
      cgst: i.cgst,
      sgst: i.sgst,
      igst: i.igst,
    })),
  }));
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
