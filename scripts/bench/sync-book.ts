// One agent's book for the sync benchmarks (the sync, sync-import and api suites of npm run bench): 1,500
// customers and 15,000 orders (2 lines and 2 statuses each), 1,000 customers in one city and 500 in a second.
import type { Dataset, OrderRecord } from "../../src/import/importer.ts";
import { customerRecord, dataset as fixture, oneAgentRecords, orderRecord } from "../../test/fixtures/dataset.ts";

export const CUSTOMERS = 1500;
export const ORDERS = 15_000;
/** Customers in the renamed city; the others are in a second city. */
export const IN_CITY = 1000;

/** The book, its first city named `cityName`. */
export function dataset(cityName: string): Dataset {
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => {
    const id = i + 1;
    return customerRecord(id, {
      email: null,
      contactperson_number: `9${String(id).padStart(9, "0")}`,
      gstin: null,
      area_id: id <= IN_CITY ? 1 : 2,
      postalcode_id: 1,
    });
  });
  // Customer c's orders: 9 each for the city's customers (9,000), 12 each for the others (6,000).
  const orders: OrderRecord[] = Array.from({ length: ORDERS }, (_, i) => {
    const id = i + 1;
    const customerId = i < IN_CITY * 9 ? Math.floor(i / 9) + 1 : IN_CITY + Math.floor((i - IN_CITY * 9) / 12) + 1;
    return orderRecord(id, customerId, {
      deliveryagent_id: 1,
      items: [
        { product_id: 1, quantity: 1, price: 60 },
        { product_id: 2, quantity: 2, price: 20 },
      ],
      statuses: [
        { name: "Placed", at: "2026-03-14T09:30:00Z" },
        { name: "Delivered", at: "2026-03-15T09:30:00Z" },
      ],
    });
  });
  const book = oneAgentRecords();
  return {
    ...book,
    cities: [
      { id: 1, name: cityName, code: "MUM", state_id: 1 },
      { id: 2, name: "Pune", code: "PNQ", state_id: 1 },
    ],
    areas: [...book.areas, { id: 2, name: "Kothrud", area_code: "KO", city_id: 2 }],
    products: fixture.products.slice(0, 2),
    customers,
    orders,
  } as Dataset;
}

/**
 * A migrated local platform on a fresh state folder of the run's own (never the operator's), and the
 * importer. PERSIST_DIR is read by scripts/lib/local.ts when it loads: it must not be loaded before.
 */
export async function openBookState(persistDir: string) {
  process.env.PERSIST_DIR = persistDir;
  const { openMigratedPlatform } = await import("../lib/migrate.ts");
  const { importDataset } = await import("../../src/import/importer.ts");
  return { platform: await openMigratedPlatform({}), importDataset };
}
