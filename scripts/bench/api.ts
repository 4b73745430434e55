// `npm run bench -- api`: the API's figures on a generated dataset imported with `npm run db:import` and served by
// `npm run dev`: each endpoint loaded beside the floors (scripts/bench/floors.ts) served at the same time, rows
// read per page, the orders page beside the demo dataset's, and the gzipped bundle.
import { join } from "node:path";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import type { Figures, LoadOptions } from "./cannon.ts";
import { auth, findTargets, importInto, largeDataset, makeKey, type PerfRun, ratioRounds } from "./harness.ts";
import type { FloorName, PageFloor, Row, Summary } from "./report.ts";

export interface ApiOptions {
  load: LoadOptions;
  rounds: number;
  customers: number;
  orders: number;
  cacheDir: string;
}

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
  const step = (message: string) => perf.step(message);
  // Loaded once the command line is known to be good: wrangler is a large module.
  const { bundleSize } = await import("./bundle.ts");
  const { toMarkdown } = await import("./report.ts");
  const { startFloors } = await import("./servers.ts");
  const { measureOrdersWalk, measureRowsRead, measureWalk } = await import("./rows.ts");
  const { file, state: largeDir, imported, key: largeKey, targets: large } = await largeState(perf, opts);
  const demoState = join(perf.dir, "demo-state");
  step("npm run db:import (demo dataset) ...");
  const demoImport = await importInto(demoState, DEMO_OPTIONS.out);
  const demoKey = await makeKey(demoState, "bench");
  const demo = await findTargets(demoState);
  step(`busiest customer: ${large.orders} orders (large), ${demo.orders} (demo); pincode ${large.pincode}`);
  const run = perf.runner(opts.load);
  const reloads: number[] = [];

  const floors = await startFloors(perf, largeDir);
  const api = await perf.serveApi("api-large", "dev", largeDir);
  step(`floors at ${floors.url}, API at ${api.url}`);

  step("rows read per request (Server-Timing d1rows) ...");
  const pincodePath = `/api/fetch-salesagent-by-pincode?pincode=${large.pincode}`;
  const ordersPath = `/api/orders?phone_number=${large.phone}&count=10`;
  const ordersLabel = `GET /orders (10 of ${large.orders})`;
  const rowsRead = await measureRowsRead(api.url, largeKey, [
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
  const walk = await measureWalk(api.url, largeKey, 100);
  const ordersWalk = await measureOrdersWalk(api.url, largeKey, large.phone, 10);

  // The floors write the log line that every request of the API writes: the ratios are to those. The bare
  // floors are measured once, for comparison.
  const floorPaths: Record<FloorName, string> = { constant: "/constant-logged", "one query": "/select1-logged" };
  const rows: Row[] = [];
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
  for (const { label, path, floor, target, cpuTarget } of endpoints) {
    const { median, ratios, rounds } = await ratioRounds(
      opts.rounds,
      () => run(`floor: ${floor}`, floors, floorPaths[floor]),
      () => run(label, api, path, auth(largeKey)),
    );
    const cpuRatios = rounds.map((r) =>
      r.figures.cpuMs === null || r.floorRun.cpuMs === null ? null : r.figures.cpuMs / r.floorRun.cpuMs,
    );
    rows.push({ ...median, floor, target, cpuTarget, ratios, cpuRatios, floorRuns: rounds.map((r) => r.floorRun) });
  }
  const bare: Record<FloorName, Figures> = {
    constant: await run("floor: constant, no log line", floors, "/constant"),
    "one query": await run("floor: one query, no log line", floors, "/select1"),
  };
  // The pages' own statements alone and with the log line, in rounds, each after a one-query run.
  const pageFloors: PageFloor[] = [];
  for (const [name, path, query] of [
    ["customers (10)", "/customers-page", ""],
    [`orders (10 of ${large.orders})`, "/orders-page", `?phone=${large.phone}`],
  ] as const) {
    const rounds: PageFloor["rounds"] = [];
    for (let i = 0; i < opts.rounds; i++) {
      rounds.push({
        oneQuery: await run("floor: one query", floors, floorPaths["one query"]),
        alone: await run(`floor: ${name} page statements`, floors, `${path}${query}`),
        logged: await run(`floor: ${name} page statements + log line`, floors, `${path}-logged${query}`),
      });
    }
    pageFloors.push({ name, rounds });
  }
  reloads.push(api.reloads(), floors.reloads());
  await api.stop();

  const demoApi = await perf.serveApi("api-demo", "dev", demoState);
  const ordersDemo = await run(
    `GET /orders (10 of ${demo.orders}, demo data)`,
    demoApi,
    `/api/orders?phone_number=${demo.phone}&count=10`,
    auth(demoKey),
  );
  reloads.push(demoApi.reloads());
  await demoApi.stop();
  await floors.stop();

  step("bundle: wrangler deploy --dry-run ...");
  const bundle = await bundleSize(join(perf.dir, "dist"));

  const summary: Summary = {
    dataset: `${opts.customers} customers, ${opts.orders} orders (${file})`,
    imports: [`large: ${imported.summary} (command ${imported.seconds.toFixed(0)} s)`, `demo: ${demoImport.summary}`],
    options: opts.load,
    bare,
    rows,
    pageFloors,
    rowsRead,
    walk,
    ordersWalk,
    ordersLarge: rows[3]!.figures,
    ordersDemo,
    ordersLargeCount: large.orders,
    ordersDemoCount: demo.orders,
    bundle,
    reloads: reloads.reduce((sum, n) => sum + n, 0),
  };
  return toMarkdown(summary);
}
