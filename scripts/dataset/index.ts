// Generates a whole dataset (deterministic for the same options) and streams it to a file.
import { CATALOG } from "./catalog.ts";
import { type CustomerFacts, generateCustomers } from "./customers.ts";
import { buildGeography } from "./geography.ts";
import { generateOrders } from "./orders.ts";
import { buildDeliveryAgents, buildSalesForce } from "./parties.ts";
import { Rng } from "./prng.ts";
import type { RecordType } from "../../src/import/import.format.ts";
import { DatasetWriter, formatOf } from "./writer.ts";

export interface DatasetOptions {
  customers: number;
  orders: number;
  out: string;
  seed: number;
}

/** The demo dataset that `npm start` loads (data/demo.json). */
export const DEMO_OPTIONS: DatasetOptions = { customers: 300, orders: 800, out: "data/demo.json", seed: 1 };
/** The mobile-number bijection is exact below this many customers (see people.ts). */
export const MAX_CUSTOMERS = 3_000_000;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

export interface DatasetSummary {
  customers: number;
  orders: number;
  salesAgents: number;
  deliveryAgents: number;
  postalCodes: number;
  records: number;
}

/** @param onRecord told of each record as it is written (for progress) */
export async function writeDataset(
  options: DatasetOptions,
  onRecord?: (type: RecordType) => void,
): Promise<DatasetSummary> {
  const format = formatOf(options.out);
  if (!format) throw new Error(`--out must end in .json or .jsonl: ${options.out}`);
  if (!Number.isInteger(options.customers) || options.customers < 1 || options.customers > MAX_CUSTOMERS) {
    throw new Error(`--customers must be an integer from 1 to ${MAX_CUSTOMERS}`);
  }
  if (!Number.isInteger(options.orders) || options.orders < 0)
    throw new Error("--orders must be an integer, 0 or more");

  // Separate streams per part, so that changing the order count leaves customers and agents alike.
  const geo = buildGeography(new Rng(options.seed * 7 + 1), Math.min(20_000, Math.ceil(options.customers / 100)));
  const salesAgentCount = clamp(Math.ceil(options.customers / 25), 12, 1000);
  const deliveryAgentCount = clamp(Math.ceil(options.customers / 60), 5, 400);
  const force = buildSalesForce(new Rng(options.seed * 7 + 2), geo, salesAgentCount);
  const deliveryAgents = buildDeliveryAgents(new Rng(options.seed * 7 + 3), deliveryAgentCount);
  const facts: CustomerFacts = {
    salesAgentId: new Int32Array(options.customers),
    intraState: new Uint8Array(options.customers),
  };

  const writer = new DatasetWriter(options.out, format, onRecord);
  await writer.section("state", geo.states);
  await writer.section("city", geo.cities);
  await writer.section("area", geo.areas);
  await writer.section("postal_code", geo.postalCodes);
  await writer.section("sales_agent", force.agents);
  await writer.section("delivery_agent", deliveryAgents);
  await writer.section(
    "product",
    CATALOG.map((p, k) => ({ id: k + 1, sku: p.sku, name: p.name })),
  );
  await writer.section(
    "customer",
    generateCustomers(new Rng(options.seed * 7 + 4), geo, force.agentsByPostalCode, options.customers, facts),
  );
  await writer.section(
    "order",
    generateOrders(
      new Rng(options.seed * 7 + 5),
      {
        orders: options.orders,
        customers: options.customers,
        salesAgents: salesAgentCount,
        deliveryAgents: deliveryAgentCount,
      },
      facts,
    ),
  );
  const records = await writer.close();
  return {
    customers: options.customers,
    orders: options.orders,
    salesAgents: salesAgentCount,
    deliveryAgents: deliveryAgentCount,
    postalCodes: geo.postalCodes.length,
    records,
  };
}
