// `npm run bench -- api`: the API's figures on a generated dataset imported with `npm run db:import` and served by
// `npm run dev`: each endpoint loaded beside the floors (scripts/bench/floors.ts) served at the same time, rows
// read per page, the orders page beside the demo dataset's, the first sync of the sync suite, and the gzipped bundle.
import { join } from "node:path";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import { type Figures, type LoadOptions, mean, median, num, tableHead } from "./cannon.ts";
import { auth, findTargets, importInto, largeDataset, makeKey, type PerfRun, ratioRounds } from "./harness.ts";

export interface ApiOptions {
  load: LoadOptions;
  rounds: number;
  customers: number;
  orders: number;
  cacheDir: string;
}

type FloorName = "constant" | "one query";
const FLOOR_PATHS: Record<FloorName, string> = { constant: "/constant-logged", "one query": "/select1-logged" };
const P50_TARGET = 1.5;
const BUNDLE_TARGET_KIB = 150;

const ms = (n: number) => num(n, n < 10 ? 1 : 0);
const mark = (ok: boolean) => (ok ? "yes" : "**no**");
const cpuText = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
/** The median, with every round's in brackets when there are several. */
const rounds = (xs: number[]) =>
  `${median(xs).toFixed(2)}${xs.length > 1 ? ` (${xs.map((x) => x.toFixed(2)).join(", ")})` : ""}`;
/** Failed requests and a probe that was not answered 200, flagged after a label. */
const problemsOf = (f: Figures) =>
  (f.failures ? ` (**${num(f.failures)} failed**)` : "") +
  (f.status !== 200 ? ` (**probe answered ${f.status}**)` : "");

const orderRow = (name: string, orders: number, f: Figures) =>
  `| ${name} | ${num(orders)} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} |`;

/** The generated dataset imported into a state folder of the run, with a key and the busiest customer. */
export async function largeState(perf: PerfRun, opts: ApiOptions) {
  perf.step(`dataset: ${opts.customers} customers, ${opts.orders} orders`);
  const dataset = await largeDataset(opts.cacheDir, opts.customers, opts.orders);
  perf.step(`${dataset.cached ? "reusing" : "generated"} ${dataset.file}; npm run db:import ...`);
  const state = join(perf.dir, "large-state");
  const imported = await importInto(state, dataset.file);
  perf.step(imported.summary);
  return { file: dataset.file, state, imported, key: await makeKey(state, "bench"), targets: await findTargets(state) };
}

export async function apiFigures(perf: PerfRun, opts: ApiOptions): Promise<string[]> {
  // Loaded once the command line is known to be good: wrangler is a large module.
  const { bundleSize } = await import("./bundle.ts");
  const { startFloors } = await import("./servers.ts");
  const { measureOrdersWalk, measureRowsRead, measureWalk } = await import("./rows.ts");
  const { file, state, imported, key, targets: large } = await largeState(perf, opts);
  const demoState = join(perf.dir, "demo-state");
  perf.step("npm run db:import (demo dataset) ...");
  const demoImport = await importInto(demoState, DEMO_OPTIONS.out);
  const demoKey = await makeKey(demoState, "bench");
  const demo = await findTargets(demoState);
  const run = perf.runner(opts.load);

  const floors = await startFloors(perf, state);
  const api = await perf.serveApi("api-large", "dev", state);
  perf.step("rows read per request (Server-Timing d1rows) ...");
  const pincodePath = `/api/fetch-salesagent-by-pincode?pincode=${large.pincode}`;
  const ordersPath = `/api/orders?phone_number=${large.phone}&count=10`;
  const ordersLabel = `GET /orders (10 of ${large.orders})`;
  const rowsRead = await measureRowsRead(api.url, key, [
    { label: "GET /customers (10)", path: "/api/customers?count=10" },
    { label: "GET /customers (100)", path: "/api/customers?count=100" },
    { label: "GET /customers (10, page 100 by page=N)", path: "/api/customers?count=10&page=100" },
    { label: ordersLabel, path: ordersPath },
    { label: `GET /orders (100 of ${large.orders})`, path: `/api/orders?phone_number=${large.phone}&count=100` },
    { label: "GET /orders (unknown phone, 404)", path: "/api/orders?phone_number=9999999999" },
    { label: "GET /postalcodes (10)", path: "/api/postalcodes?count=10" },
    { label: "GET /postalcodes (code)", path: `/api/postalcodes?code=${large.pincode}` },
    { label: "GET /salesagents (10)", path: "/api/salesagents?count=10" },
    { label: "GET /area (first, empty cache)", path: "/api/area" },
    { label: "GET /fetch-salesagent-by-pincode (first, empty cache)", path: pincodePath },
  ]);
  const walk = await measureWalk(api.url, key, 100);
  const ordersWalk = await measureOrdersWalk(api.url, key, large.phone, 10);

  // Issue 40's targets: throughput against the floor, and CPU a request at most so many times the floor's.
  const endpoints: { label: string; path: string; floor: FloorName; target?: number; cpuTarget?: number }[] = [
    { label: "GET /area (cached)", path: "/api/area", floor: "constant", target: 0.9, cpuTarget: 1.15 },
    {
      label: "GET /fetch-salesagent-by-pincode (cached)",
      path: pincodePath,
      floor: "constant",
      target: 0.9,
      cpuTarget: 1.15,
    },
    { label: "GET /customers (10)", path: "/api/customers?count=10", floor: "one query", target: 0.9, cpuTarget: 1.25 },
    { label: ordersLabel, path: ordersPath, floor: "one query", target: 0.85, cpuTarget: 1.25 },
    { label: "GET /postalcodes (10)", path: "/api/postalcodes?count=10", floor: "one query" },
    { label: "GET /salesagents (10)", path: "/api/salesagents?count=10", floor: "one query" },
  ];
  const floorRuns: Record<FloorName, Figures[]> = { constant: [], "one query": [] };
  const endpointRows: string[] = [];
  let ordersLarge: Figures | undefined;
  for (const { label, path, floor, target, cpuTarget } of endpoints) {
    const result = await ratioRounds(
      opts.rounds,
      () => run(`floor: ${floor}`, floors, FLOOR_PATHS[floor]),
      () => run(label, api, path, auth(key)),
    );
    floorRuns[floor].push(...result.rounds.map((r) => r.floorRun));
    const { figures: f, floorRun } = result.median;
    if (label === ordersLabel) ordersLarge = f;
    const ratio = f.rps / floorRun.rps;
    const cpuRatios = result.rounds.flatMap((r) =>
      r.figures.cpuMs === null || r.floorRun.cpuMs === null ? [] : [r.figures.cpuMs / r.floorRun.cpuMs],
    );
    const cpu = cpuRatios.length ? median(cpuRatios) : null;
    endpointRows.push(
      `| ${f.label}${problemsOf(f)} | ${f.work} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${cpuText(f.cpuMs)} | ` +
        `${floor} (${num(floorRun.rps)}) | ${rounds(result.ratios)} | ` +
        `${target === undefined ? " | " : `>= ${target} | ${mark(ratio >= target)}`} | ` +
        `${cpu === null ? "n/a" : rounds(cpuRatios)} | ${cpuTarget === undefined || cpu === null ? "" : `<= ${cpuTarget}: ${mark(cpu <= cpuTarget)}`} |`,
    );
  }
  const reloads = api.reloads() + floors.reloads();
  await api.stop();
  await floors.stop();

  const demoApi = await perf.serveApi("api-demo", "dev", demoState);
  const demoLabel = `GET /orders (10 of ${demo.orders}, demo data)`;
  const ordersDemo = await run(demoLabel, demoApi, `/api/orders?phone_number=${demo.phone}&count=10`, auth(demoKey));
  await demoApi.stop();

  // Issue 40's first-sync goal, printed with the others: the sync suite's own measurement.
  const { serveBook, firstSyncs } = await import("./sync.ts");
  const book = await serveBook(perf);
  const firstSync = await firstSyncs(book, opts.rounds);
  await book.api.stop();

  perf.step("bundle: wrangler deploy --dry-run ...");
  const bundle = await bundleSize(join(perf.dir, "dist"));
  const kib = bundle.gzipBytes / 1024;
  const p50Ratio = ordersLarge!.p50 / ordersDemo.p50;
  const { connections, seconds, warmupSeconds } = opts.load;
  return [
    ...(reloads + demoApi.reloads() > 0
      ? ["- **wrangler rebuilt the worker during the measurements (a source file changed): rerun on a quiet tree.**"]
      : []),
    `- Dataset: ${opts.customers} customers, ${opts.orders} orders (${file})`,
    `- large: ${imported.summary} (command ${imported.seconds.toFixed(0)} s)`,
    `- demo: ${demoImport.summary}`,
    `- Load: autocannon, ${connections} connections, ${seconds} s per run after a ${warmupSeconds} s warm-up, 127.0.0.1 only`,
    "- Servers: the API by `npm run dev` (RATE_LIMIT_PER_MINUTE=0, SERVER_TIMING on); the floors (scripts/bench/floors.ts) by a second " +
      "`wrangler dev` on another port at the same time, in the same environment (see docs/operations.md)",
    "- Each endpoint is measured in rounds, each right after a run of its floor. Its ratio is the median round's (every round's in " +
      "brackets); its other figures are that round's.",
    "",
    "## Floors",
    "",
    ...tableHead("floor (each writes one log line)", "req/s (each run)", "mean req/s", "mean CPU ms/request"),
    ...(["constant", "one query"] as const).map((floor) => {
      const runs = floorRuns[floor];
      const cpu = runs.map((r) => r.cpuMs);
      const cpuMean = cpu.every((c): c is number => c !== null) ? mean(cpu) : null;
      return `| ${floor} | ${runs.map((r) => num(r.rps)).join(", ")} | ${num(mean(runs.map((r) => r.rps)))} | ${cpuText(cpuMean)} |`;
    }),
    "",
    "CPU ms/request: CPU time of all the server's processes (workerd, wrangler) during a run, per request served; steadier than " +
      "req/s when other work shares the machine.",
    "",
    "## Endpoints",
    "",
    ...tableHead(
      "endpoint",
      "work per request",
      "req/s",
      "p50 ms",
      "p99 ms",
      "CPU ms/request",
      "floor (req/s)",
      "ratio",
      "target",
      "met",
      "CPU / floor's CPU",
      "CPU target",
    ),
    ...endpointRows,
    "",
    "## Rows read from D1 per request",
    "",
    "Server-Timing `d1rows` (the sum of D1's own `rows_read` over the request's statements), one request each.",
    "",
    ...tableHead("request", "rows read", "its next_page_url (cursor)"),
    ...rowsRead.map((r) => `| ${r.label} | ${num(r.first)} | ${r.next === null ? "" : num(r.next)} |`),
    "",
    `Walking all ${num(walk.customers)} customers, 100 a page (${num(walk.pages)} pages): ${num(walk.byCursor)} rows by following ` +
      `next_page_url (at most ${num(walk.maxCursorPage)} a page), ${num(walk.byPage)} by page=1..N (at most ${num(walk.maxPageN)} a page).`,
    "",
    `The busiest customer's ${num(ordersWalk.orders)} orders by next_page_url, 10 a page (${ordersWalk.pages} pages): at most ` +
      `${num(ordersWalk.maxPage)} rows a page.`,
    "",
    "## Orders page latency and data size",
    "",
    ...tableHead("dataset", "customer's orders", "req/s", "p50 ms", "p99 ms"),
    orderRow("large", large.orders, ordersLarge!),
    orderRow("demo (data/demo.json)", demo.orders, ordersDemo),
    "",
    `p50 large / demo: ${p50Ratio.toFixed(2)} (target <= ${P50_TARGET}: ${mark(p50Ratio <= P50_TARGET)})`,
    "",
    "## First sync",
    "",
    `One agent's book (\`npm run bench -- sync\`'s, scripts/bench/sync-book.ts), ${opts.rounds} rounds: ${firstSync.line}.`,
    "",
    "## Bundle",
    "",
    `\`wrangler deploy --dry-run --outdir\`: ${num(bundle.bytes / 1024, 1)} KiB, gzipped ${num(kib, 1)} KiB ` +
      `(target < ${BUNDLE_TARGET_KIB} KiB: ${mark(kib < BUNDLE_TARGET_KIB)}). wrangler: ${bundle.wranglerLine || "n/a"}`,
  ];
}
