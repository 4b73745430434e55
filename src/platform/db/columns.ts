// Shared column selections and their flat rows (one statement a page; the serializers shape them).
import { sql, type Column } from "drizzle-orm";
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../../drizzle/schema.ts";

// A column under its own alias: D1 keys a join's row by column name (id, name collide); left-joined ones may be null.
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
export type CustomerRow = Selected<typeof customerColumns>;
export type AddressRow = Selected<typeof addressColumns>;
