// npm run bench:sync-import: what imports cost the sync change log (docs/performance.md). One agent's
// book of 1,500 customers and 15,000 orders, imported into a fresh local D1 through the importer
// itself; then the same file again (rows written: 0), a file that changes 1% of the orders, and a
// city renamed that 10,000 of the records show (1,000 customers and their 9,000 orders).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Dataset, OrderRecord } from "../../src/import/importer.ts";

const CUSTOMERS = 1500;
const ORDERS = 15_000;
/** Customers in the renamed city; the others are in a second city. */
const IN_CITY = 1000;

function dataset(cityName: string): Dataset {
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "order-lookup-sync-import-"));
  // Read by scripts/lib/local.ts when it loads: a fresh state of its own, never the operator's.
  process.env.PERSIST_DIR = dir;
  const { openMigratedPlatform } = await import("../lib/migrated-platform.ts");
  const { importDataset } = await import("../../src/import/importer.ts");
  const platform = await openMigratedPlatform({});
  const db = platform.env.DB;
  const logged = async () =>
    (await db.prepare("SELECT count(*) AS n, coalesce(max(seq), 0) AS top FROM sync_changes").first<{
      n: number;
      top: number;
    }>())!;
  const step = async (name: string, data: Dataset) => {
    const before = await logged();
    const started = performance.now();
    const summary = await importDataset(db, data);
    const seconds = (performance.now() - started) / 1000;
    const { n } = (await db
      .prepare("SELECT count(*) AS n FROM sync_changes WHERE seq > ?1")
      .bind(before.top)
      .first<{ n: number }>())!;
    console.log(
      `${name.padEnd(44)} ${String(summary.rowsWritten).padStart(8)} rows written ` +
        `${String(n).padStart(7)} log entries written ${seconds.toFixed(2).padStart(7)} s`,
    );
  };
  try {
    console.log(
      `One book: ${CUSTOMERS} customers, ${ORDERS} orders (D1's rows_written; local D1 through wrangler's proxy)`,
    );
    const file = dataset("Mumbai");
    await step("import into an empty database", file);
    await step("the same file again", file);
    const onePercent = dataset("Mumbai");
    for (let i = 0; i < ORDERS; i += 100) onePercent.orders![i]!.billable_amount = 99;
    await step("1% of the orders changed (150)", onePercent);
    const renamed = dataset("Bombay");
    for (let i = 0; i < ORDERS; i += 100) renamed.orders![i]!.billable_amount = 99;
    await step(`the city renamed (shown by ${IN_CITY + IN_CITY * 9} records)`, renamed);
  } finally {
    await platform.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench:sync-import failed: ${(err as Error).message ?? err}`);
  process.exitCode = 1;
});
