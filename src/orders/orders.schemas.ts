// A sales order as the API serves it, with examples from the demo data (data/demo.json), which the
// compiler and e2e/openapi.test.ts hold to their schemas.
import { z } from "@hono/zod-openapi";
import {
  AddressOrEmptySchema,
  addressExample,
  customerFieldsExample,
  EmptyArraySchema,
  OrderCustomerSchema,
} from "../customers/customers.schemas.ts";

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

const salesAgentExample = {
  id: 7,
  first_name: "Navdeep",
  last_name: "Bedi",
  mobile_number: "6981182458",
  avatar: null,
  email: "navdeep.bedi7@sales.example.com",
};

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

const orderExample = {
  id: 721,
  order_no: "SO-000721",
  item_total_amount: 6278,
  discount_amount: 0,
  return_total_amount: 0,
  billable_amount: 6278,
  date: "2026-01-18",
  products: [
    { id: 7, sku: "RIC-BAS-5K", name: "Basmati Rice 5kg", quantity: 10, price: 620 },
    { id: 14, sku: "DAL-URD-500", name: "Urad Dal 500g", quantity: 1, price: 78 },
  ],
  customer: { ...customerFieldsExample, address: addressExample },
  address: addressExample,
  salesagent: salesAgentExample,
  deliveryagent: { id: 4, first_name: "Amit", last_name: "M", phone_number: "8252443066" },
  laststatus: { name: "Undelivered" as const },
  invoices: [
    {
      id: 696,
      invoice_number: "INV-000696",
      date: "2026-01-20",
      due_date: "2026-02-04",
      total_amount: 6278,
      discount_amount: 0,
      returned_amount: 0,
      invoice_amount: 6278,
      cgst: 0,
      sgst: 0,
      igst: 298.95,
    },
  ],
};

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
      z.object({
        id: z.number().int(),
        sku: z.string(),
        name: z.string(),
        quantity: z.number().int(),
        price: z.number(),
      }),
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
