// The one place that maps a customer's columns to its answer; typed by the schemas, so the compiler
// holds every answer to the document.
import type { z } from "@hono/zod-openapi";
import type { AddressRow, CustomerRow } from "../platform/db/columns.ts";
import type { AddressOrEmptySchema, CustomerSchema, OrderCustomerSchema } from "./customers.schemas.ts";

export type Customer = z.infer<typeof CustomerSchema>;
export type AddressOrEmpty = z.infer<typeof AddressOrEmptySchema>;
export type CustomerFields = Omit<z.infer<typeof OrderCustomerSchema>, "address">;

/** No address (the left join found none) is an empty array, as the published interface has it. */
export function toAddress(row: AddressRow): AddressOrEmpty {
  if (row.addrCustomerId === null) return [];
  return {
    addressline1: row.addressline1!,
    addressline2: row.addressline2 ?? "",
    area: {
      id: row.areaId!,
      name: row.areaName!,
      area_code: row.areaCode ?? "",
      city: {
        id: row.cityId!,
        name: row.cityName!,
        code: row.cityCode!,
        state: { id: row.stateId!, code: row.stateCode!, name: row.stateName! },
      },
    },
    postalcode: { id: row.postalcodeId!, code: row.postalcode! },
  };
}

export function toCustomerFields(row: CustomerRow): CustomerFields {
  return {
    id: row.id!,
    contact_person_name: row.contactPersonName!,
    company_name: row.companyName!,
    display_name: row.displayName!,
    email: row.email,
    contactperson_number: row.contactpersonNumber!,
    company_phone: row.companyPhone,
    gst_treatment: row.gstTreatment!,
    gstin: row.gstin,
    customer_code: row.customerCode,
  };
}

export function toCustomer(
  row: CustomerRow & AddressRow & { status: string | null; approval: string | null },
): Customer {
  return {
    ...toCustomerFields(row),
    status: row.status as Customer["status"],
    approval: row.approval as Customer["approval"],
    address: toAddress(row),
  };
}
