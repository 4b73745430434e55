import { z } from "@hono/zod-openapi";
import { AddressOrEmptySchema, EmptyArraySchema, OrderCustomerSchema } from "../customers/customers.schemas.ts";
import { orderExample, salesAgentExample } from "../platform/examples.ts";

export const ORDER_STATUS_NAMES = [
  "Placed",
  "Processed",
  "In Review/Invoice Dept",
  "Shipment Created",
  "Delivered",
  "Cancelled",
  "Returned",
  "Invoice Generated",
  "Undelivered",
  "Postponed",
] as const;

export type OrderStatusName = (typeof ORDER_STATUS_NAMES)[number];

export const OrderSalesAgentSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    mobile_number: z.string(),
    avatar: z.string().nullable(),
    email: z.string().nullable(),
  })
  .openapi("SalesAgent", { example: salesAgentExample });

export const OrderSchema = z
  .object({
    id: z.number().int(),
    order_no: z.string(),
    item_total_amount: z.number(),
    discount_amount: z.number(),
    return_total_amount: z.number(),
    billable_amount: z.number(),
    date: z.string().openapi({ format: "date" }),
    products: z.array(
      z.object({ id: z.number().int(), sku: z.string(), name: z.string(), quantity: z.number().int(), price: z.number() }),
    ),
    customer: OrderCustomerSchema,
    address: AddressOrEmptySchema,
    salesagent: z.union([OrderSalesAgentSchema, EmptyArraySchema]),
    deliveryagent: z
      .object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), phone_number: z.string() })
      .nullable(),
    laststatus: z.object({ name: z.enum(ORDER_STATUS_NAMES) }).nullable(),
    invoices: z.array(
      z.object({
        id: z.number().int(),
        invoice_number: z.string(),
        date: z.string().openapi({ format: "date" }),
        due_date: z.string().openapi({ format: "date" }),
        total_amount: z.number(),
        discount_amount: z.number(),
        returned_amount: z.number(),
        invoice_amount: z.number(),
        cgst: z.number(),
        sgst: z.number(),
        igst: z.number(),
      }),
    ),
  })
  .openapi("Order", { example: orderExample });
