// Column selections shared by the queries, and the functions that shape their rows into the API's
// objects. Rows are flat so that one SQL statement serves a whole page.
import { sql, type Column } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";

/**
 * A column under its own name in the result. D1 returns rows of a join positionally by column name,
 * and columns of the same name from two tables (id, name, code) collide; every column of a
 * multi-table select goes through this. Left-joined columns may be null whatever their type says.
 */
export function as<C extends Column>(column: C, alias: string) {
  return sql<C["_"]["data"] | null>`${column}`.as(alias);
}

export const customerColumns = {
  id: as(customers.id, "c_id"),
  contactPersonName: as(customers.contactPersonName, "c_contact_person_name"),
  companyName: as(customers.companyName, "c_company_name"),
  displayName: as(customers.displayName, "c_display_name"),
  email: as(customers.email, "c_email"),
  contactpersonNumber: as(customers.contactpersonNumber, "c_contactperson_number"),
  companyPhone: as(customers.companyPhone, "c_company_phone"),
  gstTreatment: as(customers.gstTreatment, "c_gst_treatment"),
  gstin: as(customers.gstin, "c_gstin"),
  customerCode: as(customers.customerCode, "c_customer_code"),
};

/** An area with its city and state (joined from areas), as an address carries it. */
export const areaColumns = {
  areaId: as(areas.id, "ar_id"),
  areaName: as(areas.name, "ar_name"),
  areaCode: as(areas.areaCode, "ar_area_code"),
  cityId: as(cities.id, "ci_id"),
  cityName: as(cities.name, "ci_name"),
  cityCode: as(cities.code, "ci_code"),
  stateId: as(states.id, "st_id"),
  stateCode: as(states.code, "st_code"),
  stateName: as(states.name, "st_name"),
};

export const addressColumns = {
  addrCustomerId: as(customerAddresses.customerId, "a_customer_id"),
  addressline1: as(customerAddresses.addressline1, "a_addressline1"),
  addressline2: as(customerAddresses.addressline2, "a_addressline2"),
  ...areaColumns,
  postalcodeId: as(postalCodes.id, "pc_id"),
  postalcode: as(postalCodes.code, "pc_code"),
};

type Selected<T> = { [K in keyof T]: T[K] extends { _: { type: infer V } } ? V : never };
type CustomerRow = Selected<typeof customerColumns>;
type AddressRow = Selected<typeof addressColumns>;

export function toAddress(row: AddressRow) {
  if (row.addrCustomerId === null) return [] as never[];
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

/** The interface's ten customer fields, as stored. */
export function toCustomerFields(row: CustomerRow) {
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
