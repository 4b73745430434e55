// A page of a customer's orders as the API serves it; typed by the schema, so the compiler holds the
// answer to the document.
import type { z } from "@hono/zod-openapi";
import type { OrderRowsById } from "./orders.queries.ts";
import type { OrderSchema, OrderStatusName } from "./orders.schemas.ts";
import { toAddress, toCustomerFields } from "../customers/customers.serialize.ts";
import type { AddressRow, CustomerRow } from "../platform/db/columns.ts";

export type Order = z.infer<typeof OrderSchema>;

/** What every order of one customer shows of it: the customer with its address, and the address. */
export type ShownCustomer = Pick<Order, "customer" | "address">;

export function shownCustomer(row: CustomerRow & AddressRow): ShownCustomer {
  const address = toAddress(row);
  return { customer: { ...toCustomerFields(row), address }, address };
}

/** Orders of any customers, their lines and invoices grouped once for all; `customerOf` as each shows it. */
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
    // The importer admits only ORDER_STATUS_NAMES.
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
