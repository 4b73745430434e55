// Generates a whole dataset (deterministic for the same options) and streams it to a file in the
// docs/commands.md format, a record at a time, so that a million orders never sit in memory: `.json`
// (one object of arrays, a record a line) or `.jsonl` (a record a line with its "type").
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { MEMBER_OF, RECORD_TYPES, type Dataset, type RecordType } from "../../src/import/import.format.ts";
import { generateCustomers } from "./customers.ts";
import { buildGeography } from "./geography.ts";
import { CATALOG, generateOrders } from "./orders.ts";
import { buildDeliveryAgents, buildSalesForce } from "./parties.ts";
import { Rng } from "./prng.ts";

/** The demo dataset that `npm start` loads (data/demo.json). */
export const DEMO_OPTIONS = { customers: 300, orders: 800, out: "data/demo.json", seed: 1 };
/** The mobile-number bijection is exact below this many customers (see people.ts). */
export const MAX_CUSTOMERS = 3_000_000;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** @param onRecord told of each record as it is written (for progress) */
export async function writeDataset(options: typeof DEMO_OPTIONS, onRecord: (type: RecordType) => void) {
  const jsonl = options.out.endsWith(".jsonl");
  if (!jsonl && !options.out.endsWith(".json")) throw new Error(`--out must end in .json or .jsonl: ${options.out}`);

  // Separate streams per part, so that changing the order count leaves customers and agents alike.
  const geo = buildGeography(new Rng(options.seed * 7 + 1), Math.min(20_000, Math.ceil(options.customers / 100)));
  const salesAgents = clamp(Math.ceil(options.customers / 25), 12, 1000);
  const deliveryAgents = clamp(Math.ceil(options.customers / 60), 5, 400);
  const force = buildSalesForce(new Rng(options.seed * 7 + 2), geo, salesAgents);
  const facts = { salesAgentId: new Int32Array(options.customers), intraState: new Uint8Array(options.customers) };
  const plan = { orders: options.orders, customers: options.customers, salesAgents, deliveryAgents };
  // Generators: each section is made as it is written, customers' facts before the orders read them.
  const sections: { [T in RecordType]: Iterable<NonNullable<Dataset[(typeof MEMBER_OF)[T]]>[number]> } = {
    state: geo.states,
    city: geo.cities,
    area: geo.areas,
    postal_code: geo.postalCodes,
    sales_agent: force.agents,
    delivery_agent: buildDeliveryAgents(new Rng(options.seed * 7 + 3), deliveryAgents),
    product: CATALOG.map(({ id, sku, name }) => ({ id, sku, name })),
    customer: generateCustomers(new Rng(options.seed * 7 + 4), geo, force.agentsByPostalCode, options.customers, facts),
    order: generateOrders(new Rng(options.seed * 7 + 5), plan, facts),
  };

  const stream = createWriteStream(options.out, { encoding: "utf8" });
  let buffer = "";
  let records = 0;
  for (const type of RECORD_TYPES) {
    if (!jsonl) buffer += `${type === "state" ? "{\n" : ",\n"}"${MEMBER_OF[type]}": [`;
    let count = 0;
    for (const record of sections[type]) {
      if (jsonl) buffer += `${JSON.stringify({ type, ...record })}\n`;
      else buffer += `${count === 0 ? "\n" : ",\n"}${JSON.stringify(record)}`;
      count++;
      onRecord(type);
      if (buffer.length >= 1 << 16) {
        if (!stream.write(buffer)) await once(stream, "drain");
        buffer = "";
      }
    }
    if (!jsonl) buffer += count === 0 ? "]" : "\n]";
    records += count;
  }
  stream.end(jsonl ? buffer : `${buffer}\n}\n`);
  await once(stream, "finish");
  return { salesAgents, deliveryAgents, postalCodes: geo.postalCodes.length, records };
}
