// The customer and its address as the API serves them, with examples from the demo data
// (data/demo.json), which the compiler and e2e/openapi.test.ts hold to their schemas.
import { z } from "@hono/zod-openapi";

/** "None", as the published interface writes it for an address or a sales agent: an empty array. */
export const EmptyArraySchema = z
  .array(z.unknown())
  .max(0)
  .openapi("EmptyArray", { description: "An empty array: the published interface's way of saying that there is none" });

export const addressExample = {
  addressline1: "Door No. 230/39, Main Road",
  addressline2: "",
  area: {
    id: 95,
    name: "Banjara Hills",
    area_code: "BH",
    city: { id: 21, name: "Hyderabad", code: "HYD", state: { id: 7, code: "TG", name: "Telangana" } },
  },
  postalcode: { id: 93, code: "500034" },
};

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

export const AddressOrEmptySchema = z.union([AddressSchema, EmptyArraySchema]);

/** An order's customer has these ten fields too. */
export const customerFieldsExample = {
  id: 1,
  contact_person_name: "Harish Iyengar",
  company_name: "Iyengar Brothers",
  display_name: "Iyengar Brothers",
  email: "harish99@yahoo.com",
  contactperson_number: "+91 98200 00001",
  company_phone: "040-20324320",
  gst_treatment: "Registered",
  gstin: "36JFGFI5184M1ZC",
  customer_code: null,
};

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

export const customerExample = {
  ...customerFieldsExample,
  status: "Active" as const,
  approval: "accepted" as const,
  address: addressExample,
};

export const CustomerSchema = z
  .object({
    ...customerFields,
    status: z.enum(["Active", "Inactive"]),
    approval: z.enum(["pending", "accepted", "rejected"]),
    address: AddressOrEmptySchema,
  })
  .openapi("Customer", { example: customerExample });

export const OrderCustomerSchema = z
  .object({ ...customerFields, address: AddressOrEmptySchema })
  .openapi("OrderCustomer", { example: { ...customerFieldsExample, address: addressExample } });
