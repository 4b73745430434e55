// `npm run demo:generate [-- --customers N --orders M --out FILE --seed S]`: writes a deterministic
// dataset in the CONTRACTS.md format. Without arguments it rewrites the demo data, data/demo.json.
import { parseArgs } from "node:util";
import { DEMO_OPTIONS, writeDataset } from "./dataset/index.ts";
import { Progress } from "./lib/progress.ts";

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      customers: { type: "string" },
      orders: { type: "string" },
      out: { type: "string" },
      seed: { type: "string" },
    },
    strict: true,
  });
  const options = {
    customers: integer("customers", values.customers, DEMO_OPTIONS.customers),
    orders: integer("orders", values.orders, DEMO_OPTIONS.orders),
    out: values.out ?? DEMO_OPTIONS.out,
    seed: integer("seed", values.seed, DEMO_OPTIONS.seed),
  };
  const started = Date.now();
  // Customers and orders are nearly all of the records: the share of them written is the estimate.
  const progress = new Progress({ label: "generate", total: options.customers + options.orders });
  let bulk = 0;
  const summary = await writeDataset(options, (type) => {
    if (type === "customer" || type === "order") bulk++;
    progress.record(type, bulk);
  });
  progress.stop();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `Wrote ${options.out}: ${summary.customers} customers, ${summary.orders} orders, ${summary.salesAgents} sales agents, ` +
      `${summary.deliveryAgents} delivery agents, ${summary.postalCodes} postal codes (${summary.records} records, ${seconds} s).`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
