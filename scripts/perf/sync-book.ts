// One agent's book for the sync benchmarks (npm run bench:sync-import, npm run bench:sync): 1,500
// customers and 15,000 orders (2 lines and 2 statuses each), 1,000 customers in one city and 500 in a second.
import type { Dataset, OrderRecord } from "../../src/import/importer.ts";

export const CUSTOMERS = 1500;
export const ORDERS = 15_000;
/** Customers in the renamed city; the others are in a second city. */
export const IN_CITY = 1000;

/** The book, its first city named `cityName`. */
export function dataset(cityName: string): Dataset {
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => {
    const id = i + 1;
    return {
      id,
      contact_person_name: `Contact ${id}`,
      company_name: `Company ${id}`,
      display_name: `Company ${id}`,
      email: null,
      contactperson_number: `9${String(id).padStart(9, "0")}`,
      company_phone: null,
      gst_treatment: "Unregistered" as const,
      gstin: null,
      customer_code: null,
      status: "Active" as const,
      approval: "accepted" as const,
      salesagent_id: 1,
      address: { addressline1: `${id} Main Road`, addressline2: "", area_id: id <= IN_CITY ? 1 : 2, postalcode_id: 1 },
    };
  });
  // Customer c's orders: 9 each for the city's customers (9,000), 12 each for the others (6,000).
  const orders: OrderRecord[] = Array.from({ length: ORDERS }, (_, i) => {
    const id = i + 1;
    const customerId = i < IN_CITY * 9 ? Math.floor(i / 9) + 1 : IN_CITY + Math.floor((i - IN_CITY * 9) / 12) + 1;
    return {
      id,
      order_no: `SO-${id}`,
      customer_id: customerId,
      salesagent_id: 1,
      deliveryagent_id: 1,
      date: "2026-03-14",
      item_total_amount: 100,
      discount_amount: 0,
      return_total_amount: 0,
      billable_amount: 100,
      items: [
        { product_id: 1, quantity: 1, price: 60 },
        { product_id: 2, quantity: 2, price: 20 },
      ],
      statuses: [
        { name: "Placed", at: "2026-03-14T09:30:00Z" },
        { name: "Delivered", at: "2026-03-15T09:30:00Z" },
      ],
      invoices: [],
    };
  });
  return {
    states: [{ id: 1, code: "MH", name: "Maharashtra" }],
    cities: [
      { id: 1, name: cityName, code: "MUM", state_id: 1 },
      { id: 2, name: "Pune", code: "PNQ", state_id: 1 },
    ],
    areas: [
      { id: 1, name: "Andheri East", area_code: "AE", city_id: 1 },
      { id: 2, name: "Kothrud", area_code: "KO", city_id: 2 },
    ],
    postal_codes: [{ id: 1, code: "400069" }],
    sales_agents: [
      {
        id: 1,
        first_name: "Asha",
        last_name: "Rao",
        mobile_number: "9876543210",
        email: null,
        avatar: null,
        postalcode_ids: [1],
      },
    ],
    delivery_agents: [{ id: 1, first_name: "Ravi", last_name: "K", phone_number: "9123456780" }],
    products: [
      { id: 1, sku: "SKU-001", name: "Tea 250g" },
      { id: 2, sku: "SKU-002", name: "Sugar 1kg" },
    ],
    customers,
    orders,
  } as Dataset;
}
