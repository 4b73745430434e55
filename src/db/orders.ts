import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
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
import type { Database } from "../middleware/services.ts";
import type { Page } from "../lib/pagination.ts";
import type { OrderStatusName } from "../schemas/order.ts";
import { selectCustomersWithAddress } from "./customers.ts";
import { toAddress, toCustomerFields } from "./shapes.ts";

export interface OrderFilter {
  phoneKey: string;
  /** Inclusive bounds, yyyy-mm-dd. */
  from?: string;
  to?: string;
}

/**
 * One page of a customer's orders, found by normalized phone, with everything each order carries:
 * five statements in one db.batch(), so one D1 round trip whatever the page size.
 * Returns null when no customer has that number.
 */
export async function findOrdersByPhone(db: Database, filter: OrderFilter, page: Page) {
  const customerId = db.select({ id: customers.id }).from(customers).where(eq(customers.phoneKey, filter.phoneKey));
  const conditions: SQL[] = [eq(orders.customerId, sql`(${customerId})`)];
  if (filter.from) conditions.push(gte(orders.date, filter.from));
  if (filter.to) conditions.push(lte(orders.date, filter.to));
  const where = and(...conditions);
  const pageIds = db
    .select({ id: orders.id })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.date), desc(orders.id))
    .limit(page.count)
    .offset(page.skip);
  // Latest status by time; on a tie, the one recorded later.
  const lastStatus = sql<OrderStatusName | null>`(select ${orderStatuses.name} from ${orderStatuses}
    where ${orderStatuses.orderId} = ${orders.id}
    order by ${orderStatuses.at} desc, ${orderStatuses.seq} desc limit 1)`;

  const [customerRows, totalRows, orderRows, itemRows, invoiceRows] = await db.batch([
    selectCustomersWithAddress(db, eq(customers.phoneKey, filter.phoneKey)),
    db.select({ total: count() }).from(orders).where(where),
    db
      .select({
        id: orders.id,
        orderNo: orders.orderNo,
        itemTotalAmount: orders.itemTotalAmount,
        discountAmount: orders.discountAmount,
        returnTotalAmount: orders.returnTotalAmount,
        billableAmount: orders.billableAmount,
        date: orders.date,
        lastStatus,
        sa: {
          id: salesAgents.id,
          firstName: salesAgents.firstName,
          lastName: salesAgents.lastName,
          mobileNumber: salesAgents.mobileNumber,
          avatar: salesAgents.avatar,
          email: salesAgents.email,
        },
        da: {
          id: deliveryAgents.id,
          firstName: deliveryAgents.firstName,
          lastName: deliveryAgents.lastName,
          phoneNumber: deliveryAgents.phoneNumber,
        },
      })
      .from(orders)
      .leftJoin(salesAgents, eq(salesAgents.id, orders.salesagentId))
      .leftJoin(deliveryAgents, eq(deliveryAgents.id, orders.deliveryagentId))
      .where(inArray(orders.id, pageIds))
      .orderBy(desc(orders.date), desc(orders.id)),
    db
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
      .orderBy(asc(orderItems.orderId), asc(orderItems.lineNo)),
    db
      .select({
        orderId: invoices.orderId,
        id: invoices.id,
        invoice_number: invoices.invoiceNumber,
        date: invoices.date,
        due_date: invoices.dueDate,
        total_amount: invoices.totalAmount,
        discount_amount: invoices.discountAmount,
        returned_amount: invoices.returnedAmount,
        invoice_amount: invoices.invoiceAmount,
        cgst: invoices.cgst,
        sgst: invoices.sgst,
        igst: invoices.igst,
      })
      .from(invoices)
      .where(inArray(invoices.orderId, pageIds))
      .orderBy(asc(invoices.orderId), asc(invoices.date), asc(invoices.id)),
  ]);

  const customerRow = customerRows[0];
  if (!customerRow) return null;
  const address = toAddress(customerRow);
  const customer = { ...toCustomerFields(customerRow), address };

  const productsByOrder = groupBy(itemRows, (r) => r.orderId);
  const invoicesByOrder = groupBy(invoiceRows, (r) => r.orderId);
  const list = orderRows.map((o) => ({
    id: o.id,
    order_no: o.orderNo,
    item_total_amount: o.itemTotalAmount,
    discount_amount: o.discountAmount,
    return_total_amount: o.returnTotalAmount,
    billable_amount: o.billableAmount,
    date: o.date,
    products: (productsByOrder.get(o.id) ?? []).map(({ orderId: _o, ...p }) => p),
    customer,
    address,
    salesagent: o.sa
      ? {
          id: o.sa.id,
          first_name: o.sa.firstName,
          last_name: o.sa.lastName,
          mobile_number: o.sa.mobileNumber,
          avatar: o.sa.avatar,
          email: o.sa.email,
        }
      : ([] as never[]),
    deliveryagent: o.da
      ? { id: o.da.id, first_name: o.da.firstName, last_name: o.da.lastName, phone_number: o.da.phoneNumber }
      : null,
    laststatus: o.lastStatus === null ? null : { name: o.lastStatus },
    invoices: (invoicesByOrder.get(o.id) ?? []).map(({ orderId: _o, ...i }) => i),
  }));
  return { total: totalRows[0]?.total ?? 0, orders: list };
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
