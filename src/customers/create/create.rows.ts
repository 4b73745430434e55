// The rows that a new customer is stored as (the fixed values: docs/specification.md section 5), and
// the row they will read back as, which the stored answer is built from.
import type { CustomerInsertRows } from "./create.queries.ts";
import type { CustomerWithAddressRow } from "../customers.queries.ts";
import type { References } from "./create.found.ts";
import type { NewCustomer } from "./create.params.ts";

export function storedRows(input: NewCustomer): CustomerInsertRows {
  return {
    customer: {
      contactPersonName: input.contactPersonName,
      companyName: input.companyName,
      displayName: input.companyName,
      email: "",
      contactpersonNumber: input.mobileNumber,
      companyPhone: null,
      gstTreatment: input.gstTreatment,
      gstin: input.gstin,
      customerCode: null,
      status: "Active",
      approval: "accepted",
      phoneKey: input.phoneKey,
      salesagentId: input.salesagentId,
      origin: "api",
    },
    address: { addressline1: input.address, addressline2: "", areaId: input.areaId, postalcodeId: input.postalcodeId },
  };
}

/** What selectCustomersWithAddress will read once written: the stored answer is built before the write. */
export function expectedRow(rows: CustomerInsertRows, refs: References, id: number): CustomerWithAddressRow {
  const { customer, address } = rows;
  return {
    id,
    contactPersonName: customer.contactPersonName,
    companyName: customer.companyName,
    displayName: customer.displayName,
    email: customer.email ?? null,
    contactpersonNumber: customer.contactpersonNumber,
    companyPhone: customer.companyPhone ?? null,
    gstTreatment: customer.gstTreatment,
    gstin: customer.gstin ?? null,
    customerCode: customer.customerCode ?? null,
    status: customer.status ?? null,
    approval: customer.approval ?? null,
    addrCustomerId: id,
    addressline1: address.addressline1,
    addressline2: address.addressline2 ?? null,
    ...refs.area!,
    postalcodeId: refs.postalcode!.id,
    postalcode: refs.postalcode!.code,
  };
}
