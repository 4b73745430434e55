// Column selections shared by the queries, and the functions that shape their rows into the API's
// objects. Rows are flat so that one SQL statement serves a whole page.
import { areas, cities, customerAddresses, customers, postalCodes, states } from "../../drizzle/schema.ts";

export const customerColumns = {
  id: customers.id,
  contactPersonName: customers.contactPersonName,
  companyName: customers.companyName,
  displayName: customers.displayName,
  email: customers.email,
  contactpersonNumber: customers.contactpersonNumber,
  companyPhone: customers.companyPhone,
  gstTreatment: customers.gstTreatment,
  gstin: customers.gstin,
  customerCode: customers.customerCode,
};

export const addressColumns = {
  addrCustomerId: customerAddresses.customerId,
  addressline1: customerAddresses.addressline1,
  addressline2: customerAddresses.addressline2,
  areaId: areas.id,
  areaName: areas.name,
  areaCode: areas.areaCode,
  cityId: cities.id,
  cityName: cities.name,
  cityCode: cities.code,
  stateId: states.id,
  stateCode: states.code,
  stateName: states.name,
  postalcodeId: postalCodes.id,
  postalcode: postalCodes.code,
};

type CustomerRow = { [K in keyof typeof customerColumns]: (typeof customerColumns)[K]["_"]["data"] | null };
type AddressRow = { [K in keyof typeof addressColumns]: (typeof addressColumns)[K]["_"]["data"] | null };

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
