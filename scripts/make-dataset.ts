// `npm run demo:generate [-- --customers N --orders M --out FILE --seed S]`: writes a deterministic
// dataset in the docs/commands.md format. Without arguments it rewrites the demo data, data/demo.json.
import { DEMO_OPTIONS, MAX_CUSTOMERS, writeDataset } from "./dataset/index.ts";
import { type CommandLine, failureLine, parseCommandLine, wholeNumber } from "./lib/cli.ts";
import { Progress } from "./lib/progress.ts";

const COMMAND: CommandLine = {
  invocation: "npm run demo:generate --",
  usage: `Usage: npm run demo:generate [-- --customers N --orders M --out FILE --seed S]
  Writes a deterministic dataset (.json, or .jsonl by the file's name). Without options it rewrites
  ${DEMO_OPTIONS.out} (${DEMO_OPTIONS.customers} customers, ${DEMO_OPTIONS.orders} orders, seed ${DEMO_OPTIONS.seed}).`,
};

const OPTIONS = {
  customers: { type: "string", value: "N" },
  orders: { type: "string", value: "M" },
  out: { type: "string", value: "FILE" },
  seed: { type: "string", value: "S" },
} as const;

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), COMMAND, OPTIONS);
  const options = {
    customers: wholeNumber("customers", values.customers, DEMO_OPTIONS.customers, 1, MAX_CUSTOMERS),
    orders: wholeNumber("orders", values.orders, DEMO_OPTIONS.orders, 0),
    out: values.out ?? DEMO_OPTIONS.out,
    seed: wholeNumber("seed", values.seed, DEMO_OPTIONS.seed, 0),
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
    `Wrote ${options.out}: ${options.customers} customers, ${options.orders} orders, ${summary.salesAgents} sales agents, ` +
      `${summary.deliveryAgents} delivery agents, ${summary.postalCodes} postal codes (${summary.records} records, ${seconds} s).`,
  );
}

main().catch((error: unknown) => {
  console.error(failureLine(error, COMMAND));
  process.exit(1);
});
