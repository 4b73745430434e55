import { z } from "@hono/zod-openapi";
import { addressExample, customerExample, orderExample } from "../platform/examples.ts";

/** "None", as the published interface writes it for an address or a sales agent: an empty array. */
export const EmptyArraySchema = z
  .array(z.unknown())
  .max(0)
  .openapi("EmptyArray", { description: "An empty array: the published interface's way of saying that there is none" });

export const AddressSchema = z
  .object({
    addressline1: z.string(),
    addressline2: z.string(),
    area: z.object({
      id: z.number().int(),
      name: z.string(),
      area_code: z.string(),
      city: z.object({
        id: z.number().int(),
        name: z.string(),
        code: z.string(),
        state: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
      }),
    }),
    postalcode: z.object({ id: z.number().int(), code: z.string() }),
  })
  .openapi("Address", { example: addressExample });

/** A customer without an address carries an empty array, as the published interface does. */
export const AddressOrEmptySchema = z.union([AddressSchema, EmptyArraySchema]);

const customerFields = {
  id: z.number().int(),
  contact_person_name: z.string(),
  company_name: z.string(),
  display_name: z.string(),
  email: z.string().nullable(),
  contactperson_number: z.string(),
  company_phone: z.string().nullable(),
  gst_treatment: z.string(),
  gstin: z.string().nullable(),
  customer_code: z.string().nullable(),
};

export const CustomerSchema = z
  .object({
    ...customerFields,
    status: z.enum(["Active", "Inactive"]),
    approval: z.enum(["pending", "accepted", "rejected"]),
    address: AddressOrEmptySchema,
  })
  .openapi("Customer", { example: customerExample });

/** The customer as embedded in an order: the interface's ten fields and the address. */
export const OrderCustomerSchema = z
  .object({ ...customerFields, address: AddressOrEmptySchema })
  .openapi("OrderCustomer", { example: orderExample.customer });
