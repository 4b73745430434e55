// `npm run bench -- api` (and `usage`): the API's figures on a generated dataset imported with `npm run db:import`,
// served by `npm run dev` (no rate limit): each endpoint loaded by autocannon beside two floors served at the same time
// (a constant JSON body; one D1 `select 1`), rows read per page, the orders page beside the demo dataset's, usage
// recording on and off, and the gzipped bundle. `usage` runs only that comparison.
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import type { Figures, LoadOptions } from "./cannon.ts";
import { makeKey, type PerfRun, type Server } from "./harness.ts";
import type { FloorName, PageFloor, Row, Summary } from "./report.ts";
import type { UsageComparison } from "./usage.ts";

export interface ApiOptions {
  load: LoadOptions;
  rounds: number;
  customers: number;
  orders: number;
  /** USAGE_FLUSH_SECONDS values to compare ("" for wrangler.toml's 60). */
  usage: string[];
  usageOnly: boolean;
  cacheDir: string;
}

export async function apiFigures(perf: PerfRun, opts: ApiOptions): Promise<string[]> {
  const step = (message: string) => perf.step(message);
  // Loaded once the command line is known to be good: wrangler and autocannon are large modules.
  const { bundleSize } = await import("./bundle.ts");
  const { loadRunner, ratioRounds } = await import("./runner.ts");
  const { toMarkdown } = await import("./report.ts");
  const { startFloors } = await import("./servers.ts");
  const { findCreateTemplate, findTargets, importInto, largeDataset } = await import("./state.ts");
  const { compareUsage, createRequests, modeName, usageLines, usageMarkdown } = await import("./usage.ts");
  const { measureOrdersWalk, measureRowsRead, measureWalk } = await import("./rows.ts");
  const work = perf.dir;
  step(`working in ${work}`);

  step(`dataset: ${opts.customers} customers, ${opts.orders} orders`);
  const dataset = await largeDataset(opts.cacheDir, opts.customers, opts.orders);
  step(`${dataset.cached ? "reusing" : "generated"} ${dataset.file}`);

  const largeState = join(work, "large-state");
  const demoState = join(work, "demo-state");
  step("npm run db:import (large dataset) ...");
  const largeImport = await importInto(largeState, dataset.file);
  step(largeImport.summary);
  step("npm run db:import (demo dataset) ...");
  const demoImport = await importInto(demoState, DEMO_OPTIONS.out);
  const largeKey = await makeKey(largeState, "bench");
  const demoKey = await makeKey(demoState, "bench");
  const large = await findTargets(largeState);
  const demo = await findTargets(demoState);
  step(`busiest customer: ${large.orders} orders (large), ${demo.orders} (demo); pincode ${large.pincode}`);

  const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
  const run = loadRunner(step, opts.load);
  const reloads: number[] = [];
  // Usage recording on and off (and any other interval asked for): one server each, on its own copy
  // of the large data (made now, with the bench's key in it), all running while each is loaded in turn.
  const compareUsageModes = async (): Promise<UsageComparison | undefined> => {
    if (opts.usage.length === 0) return undefined;
    const template = await findCreateTemplate(largeState);
    const usageServers = new Map<string, Server>();
    await Promise.all(
      opts.usage.map(async (mode) => {
        const state = join(work, `usage-state-${mode || "60"}`);
        cpSync(largeState, state, { recursive: true });
        usageServers.set(
          mode,
          await perf.serveApi(`api-usage-${mode || "60"}`, "dev", state, { USAGE_FLUSH_SECONDS: mode }),
        );
      }),
    );
    step(`usage recording: ${opts.usage.map((m) => `${modeName(m)} at ${usageServers.get(m)!.url}`).join("; ")}`);
    const usage = await compareUsage(
      opts.usage,
      opts.rounds,
      [
        { label: "GET /area (cached)", path: "/api/area" },
        {
          label: "GET /fetch-salesagent-by-pincode (cached)",
          path: `/api/fetch-salesagent-by-pincode?pincode=${large.pincode}`,
        },
        { label: "GET /customers (10)", path: "/api/customers?count=10" },
        { label: `GET /orders (10 of ${large.orders})`, path: `/api/orders?phone_number=${large.phone}&count=10` },
        { label: "POST /customers/create (JSON)", path: "/api/customers/create", request: createRequests(template) },
      ],
      (mode, e) => run(`usage ${mode || "60"}: ${e.label}`, usageServers.get(mode)!, e.path, auth(largeKey), e.request),
    );
    for (const line of usageLines(usage)) step(line);
    for (const server of usageServers.values()) reloads.push(server.reloads());
    await Promise.all([...usageServers.values()].map((server) => server.stop()));
    return usage;
  };
  if (opts.usageOnly) return usageMarkdown((await compareUsageModes())!);

  const floors = await startFloors(perf, largeState);
  const api = await perf.serveApi("api-large", "dev", largeState);
  step(`floors at ${floors.url}, API at ${api.url}`);

  // Rows read before any load: one request each, read from Server-Timing's d1rows.
  step("rows read per request (Server-Timing d1rows) ...");
  const rowsRead = await measureRowsRead(api.url, largeKey, [
    { label: "GET /customers (10)", path: "/api/customers?count=10" },
    { label: "GET /customers (100)", path: "/api/customers?count=100" },
    { label: "GET /customers (10, page 100 by page=N)", path: "/api/customers?count=10&page=100" },
    { label: `GET /orders (10 of ${large.orders})`, path: `/api/orders?phone_number=${large.phone}&count=10` },
    { label: `GET /orders (100 of ${large.orders})`, path: `/api/orders?phone_number=${large.phone}&count=100` },
    { label: "GET /orders (unknown phone, 404)", path: "/api/orders?phone_number=9999999999" },
    { label: "GET /postalcodes (10)", path: "/api/postalcodes?count=10" },
    { label: "GET /postalcodes (code)", path: `/api/postalcodes?code=${large.pincode}` },
    { label: "GET /salesagents (10)", path: "/api/salesagents?count=10" },
    { label: "GET /area (first, empty cache)", path: "/api/area" },
    {
      label: "GET /fetch-salesagent-by-pincode (first, empty cache)",
      path: `/api/fetch-salesagent-by-pincode?pincode=${large.pincode}`,
    },
  ]);
  const walk = await measureWalk(api.url, largeKey, 100);
  const ordersWalk = await measureOrdersWalk(api.url, largeKey, large.phone, 10);
  for (const r of rowsRead) step(`${r.label}: ${r.first} rows${r.next === null ? "" : `, its next page ${r.next}`}`);
  step(
    `walk of ${walk.customers} customers (count 100): ${walk.byCursor} rows by next_page_url, ${walk.byPage} by page=N`,
  );
  step(
    `  seen twice ${walk.repeated}, missed ${walk.missed}, created mid-walk seen ${walk.createdMidWalkSeen} time(s), ` +
      `pages over 8 rows a customer + 10: ${walk.pagesOverBound}; count 10: first page ${walk.firstOf10} rows, deepest ${walk.deepestOf10}`,
  );
  step(
    `walk of the busiest customer's ${ordersWalk.orders} orders (count 10, ${ordersWalk.pages} pages): at most ${ordersWalk.maxPage} rows a page, ` +
      `pages over the bound: ${ordersWalk.pagesOverBound}`,
  );

  // The floors write the log line that every request of the API writes (as --scale's do): the ratios of
  // issue 40's goals are to those. The bare floors are measured once, for comparison.
  const floorPaths: Record<FloorName, string> = { constant: "/constant-logged", "one query": "/select1-logged" };
  const rows: Row[] = [];
  const endpoint = async (label: string, path: string, floor: FloorName, target?: number, cpuTarget?: number) => {
    // The floor right before the endpoint: load from others on the machine drifts over minutes.
    const { median, ratios, rounds } = await ratioRounds(
      opts.rounds,
      () => run(`floor: ${floor}`, floors, floorPaths[floor]),
      () => run(label, api, path, auth(largeKey)),
    );
    const cpuRatios = rounds.map((r) =>
      r.figures.cpuMs === null || r.floorRun.cpuMs === null ? null : r.figures.cpuMs / r.floorRun.cpuMs,
    );
    rows.push({ ...median, floor, target, cpuTarget, ratios, cpuRatios, floorRuns: rounds.map((r) => r.floorRun) });
  };
  // The targets of issue 40: throughput against the floor, and CPU a request at most so many times the floor's.
  await endpoint("GET /area (cached)", "/api/area", "constant", 0.9, 1.15);
  await endpoint(
    "GET /fetch-salesagent-by-pincode (cached)",
    `/api/fetch-salesagent-by-pincode?pincode=${large.pincode}`,
    "constant",
    0.9,
    1.15,
  );
  await endpoint("GET /customers (10)", "/api/customers?count=10", "one query", 0.9, 1.25);
  await endpoint(
    `GET /orders (10 of ${large.orders})`,
    `/api/orders?phone_number=${large.phone}&count=10`,
    "one query",
    0.85,
    1.25,
  );
  await endpoint("GET /postalcodes (10)", "/api/postalcodes?count=10", "one query");
  await endpoint("GET /salesagents (10)", "/api/salesagents?count=10", "one query");
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

  // The first sync of one agent's book (scripts/bench/sync-book.ts), a warm-up sync then the rounds.
  const { dataset: syncBook, CUSTOMERS: BOOK_CUSTOMERS, ORDERS: BOOK_ORDERS } = await import("./sync-book.ts");
  const { firstSyncRounds, wholeSync } = await import("./sync.ts");
  const bookState = join(work, "book-state");
  const bookFile = join(work, "sync-book.json");
  writeFileSync(bookFile, JSON.stringify(syncBook("Mumbai")));
  step(`npm run db:import (sync book: ${BOOK_CUSTOMERS} customers, ${BOOK_ORDERS} orders) ...`);
  await importInto(bookState, bookFile);
  const bookKey = await makeKey(bookState, "bench-sync");
  const bookApi = await perf.serveApi("api-book", "dev", bookState);
  await wholeSync(bookApi.url, bookKey, 1, undefined, 1000);
  const firstSync = await firstSyncRounds(bookApi, bookKey, 1, opts.rounds);
  for (const [i, r] of firstSync.rounds.entries()) {
    const cpu = firstSync.cpuSeconds[i];
    step(
      `first sync ${i + 1}: ${r.pages} answers, ${r.records} records, ${r.rows} rows read, ${r.seconds.toFixed(2)} s` +
        (cpu === null || cpu === undefined ? "" : `, ${cpu.toFixed(2)} CPU s`),
    );
  }
  reloads.push(bookApi.reloads());
  await bookApi.stop();

  const usage = await compareUsageModes();

  step("bundle: wrangler deploy --dry-run ...");
  const bundle = await bundleSize(join(work, "dist"));

  const summary: Summary = {
    dataset: `${opts.customers} customers, ${opts.orders} orders (${dataset.file})`,
    imports: [
      `large: ${largeImport.summary} (command ${largeImport.seconds.toFixed(0)} s)`,
      `demo: ${demoImport.summary}`,
    ],
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
    usage,
    firstSync,
    reloads: reloads.reduce((sum, n) => sum + n, 0),
  };
  return toMarkdown(summary);
}
