// `npm run bench -- SUITE [options]` (docs/performance.md, "The benchmark"): not a test, each suite prints figures.
// The report: a heading naming the command, the machine and its load, then the suite's figures, printed and
// written to bench-results/SUITE.md.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { failureLine, type OptionTable, parseSubcommand, subcommand, type Values, wholeNumber } from "./lib/cli.ts";
import { PerfRun } from "./bench/harness.ts";

const COMMAND = {
  invocation: "npm run bench --",
  usage: `Usage: npm run bench -- SUITE [options]
  Not a test: prints figures and writes them to bench-results/SUITE.md. Suites (docs/performance.md):
  api [LOAD] [--customers N] [--orders M]
                 every endpoint against its floors on a generated dataset (default 20000 customers,
                 200000 orders), rows read, the demo data's orders page, the first sync, the bundle
  sync [--rounds N]
                 GET /sync on one agent's book of 1,500 customers and 15,000 orders (N first syncs, default 1)
  app            the field app: its files' size, and in Chromium a first sync on 3G, a catch-up,
                 idle checks, opening offline and searching with the CPU slowed 4 times
  load [--duration SECONDS] [--connections N]
                 a weighted mix of every endpoint against npm start (default 60 s, 32 connections);
                 fails on a 5xx, an unanswered request or a lost create
  scale [LOAD] [--customers N] [--orders M]
                 the scale run (docs/scaling.md): 200000 customers and 2000000 orders by default beside
                 a tenth of each; 20 minutes or more
  LOAD: --duration SECONDS per run (default 6), --rounds N per endpoint (3), --connections N (16),
        --warmup SECONDS before each run (3). Every value is a whole number.
  --keep         keep the run's folder (states, servers' logs) afterwards`,
};

const LOAD = {
  duration: { type: "string", value: "SECONDS" },
  rounds: { type: "string", value: "N" },
  connections: { type: "string", value: "N" },
  warmup: { type: "string", value: "SECONDS" },
  customers: { type: "string", value: "N" },
  orders: { type: "string", value: "M" },
} as const;
const CACHE_DIR = join(tmpdir(), "order-lookup-bench-cache");
const BUSY =
  "- **The machine was busy (1-minute load above 2): the figures are lower and noisier than on a quiet machine.**";

/** The api and scale suites' options: load runs, and the generated dataset's size (cached between runs). */
const apiOptions = (v: Values<typeof LOAD>, customers: number, orders: number) => ({
  load: {
    seconds: wholeNumber("duration", v.duration, 6, 1),
    connections: wholeNumber("connections", v.connections, 16, 1),
    warmupSeconds: wholeNumber("warmup", v.warmup, 3, 1),
  },
  rounds: wholeNumber("rounds", v.rounds, 3, 1),
  customers: wholeNumber("customers", v.customers, customers, 1),
  orders: wholeNumber("orders", v.orders, orders, 0),
  cacheDir: CACHE_DIR,
});

type Suite = (perf: PerfRun) => Promise<string[] | { lines: string[]; ok: boolean }>;
/** A suite: its options, and what their values run (checked first, so that a mistake costs nothing). */
const named = <T extends OptionTable>(usage: string, options: T, build: (v: Values<T>) => Suite) =>
  subcommand({ options, operands: [], usage, build });

const SUITES = {
  api: named("api", LOAD, (v) => {
    const opts = apiOptions(v, 20_000, 200_000);
    return async (perf) => (await import("./bench/api.ts")).apiFigures(perf, opts);
  }),
  sync: named("sync", { rounds: LOAD.rounds }, (v) => {
    const rounds = wholeNumber("rounds", v.rounds, 1, 1);
    return async (perf) => (await import("./bench/sync.ts")).syncServe(perf, rounds);
  }),
  app: named("app", {}, () => async (perf) => (await import("./bench/field-app.ts")).fieldAppFigures(perf)),
  load: named("load", { duration: LOAD.duration, connections: LOAD.connections }, (v) => {
    const duration = wholeNumber("duration", v.duration, 60, 1, 3600);
    const connections = wholeNumber("connections", v.connections, 32, 1, 1024);
    return async (perf) => (await import("./bench/load.ts")).loadRun(perf, { duration, connections });
  }),
  scale: named("scale", LOAD, (v) => {
    const opts = apiOptions(v, 200_000, 2_000_000);
    return async (perf) => (await import("./bench/scale.ts")).runScale(perf, opts);
  }),
};

const argv = process.argv.slice(2);
let perf: PerfRun | undefined;
try {
  const parsed = parseSubcommand(argv, { keep: { type: "boolean" } }, SUITES);
  if (parsed.help) {
    console.log(COMMAND.usage);
    process.exit(0);
  }
  const name = argv.find((a) => !a.startsWith("-"))!;
  // An interrupt (SIGINT, SIGTERM) stops the servers first.
  const run = (perf = new PerfRun(parsed.common.keep ?? false));
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void run.finish(false).finally(() => process.exit(130)));
  const loadBefore = loadavg();
  const started = new Date();
  if (loadBefore[0]! > 2)
    run.step(`note: the 1-minute load average is ${loadBefore[0]!.toFixed(2)}; figures will be noisy`);
  mkdirSync(CACHE_DIR, { recursive: true });
  const result = await parsed.command(run);
  const { lines, ok } = Array.isArray(result) ? { lines: result, ok: true } : result;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
  const markdown = [
    `# npm run bench -- ${name}: ${started.toISOString()}`,
    "",
    `- Command: \`npm run bench -- ${argv.join(" ")}\``,
    `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, Node ${process.version}; load average (1/5/15 min) ` +
      `before ${load(loadBefore)}, after ${load(loadavg())}`,
    ...(Math.max(loadBefore[0]!, loadavg()[0]!) > 2 ? [BUSY] : []),
    "",
    ...lines,
    "",
  ].join("\n");
  const file = `bench-results/${name}.md`;
  mkdirSync("bench-results", { recursive: true });
  writeFileSync(file, markdown);
  console.log(`\n${markdown}\nWritten to ${file}.`);
  await run.finish(ok);
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error(failureLine(err, COMMAND));
  await perf?.finish(false);
  process.exit(1);
}
