// `npm run bench [-- --duration 6 --rounds 3 --connections 16 --warmup 3 --customers 20000 --orders 200000]`
// Not a test: it prints figures. Seeds a large local dataset through `npm run db:import`, serves it
// with `wrangler dev` (`npm run dev`, no rate limit), loads each endpoint with autocannon beside two
// floors served at the same time (a constant JSON body; one D1 `select 1`), compares the orders
// page's latency with the demo dataset's, compares servers with usage recording on and off, and
// measures the gzipped bundle. The summary is printed
// and written to bench-results/latest.md.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_OPTIONS } from "./dataset/index.ts";
import type { FloorName, PageFloor, Row, Summary } from "./bench/report.ts";
import type { UsageComparison } from "./bench/usage.ts";
import { type CommandLine, parseCommandLine, UsageError, wholeNumber } from "./lib/cli.ts";
import type { Figures, LoadOptions } from "./perf/cannon.ts";
import { makeKey, type PerfRun, runPerf, type Server } from "./perf/harness.ts";

const RESULTS_FILE = "bench-results/latest.md";
const SCALE_RESULTS_FILE = "bench-results/scale.md";
/** Generated datasets are kept here between runs (they take a while to make). */
const CACHE_DIR = join(tmpdir(), "order-lookup-bench-cache");

const COMMAND: CommandLine = {
  invocation: "npm run bench --",
  usage: `Usage: npm run bench [-- --duration 6 --rounds 3 --connections 16 --warmup 3 --customers 20000 --orders 200000]
  Not a test: prints figures and writes them to ${RESULTS_FILE}. Each option is a whole number:
  --duration SECONDS     per run (default 6)        --rounds N       per endpoint (default 3)
  --connections N        autocannon's (default 16)  --warmup SECONDS before each run (default 3)
  --customers N, --orders M   the generated dataset (default 20000 and 200000)
  --usage MODES          USAGE_FLUSH_SECONDS values to compare, comma-separated (default "60,off";
                         60 is wrangler.toml's; "0" writes after every request; "none" skips it)
  --usage-only           only that comparison (no floors, rows, pages, demo page or bundle)
  --rotation-only        only a key whose rotation is due against an ordinary one (demo data)
  --sync                 only GET /sync and the imports that feed it, on one agent's book of 1,500
                         customers and 15,000 orders (npm run bench:sync-import, then bench:sync)
  --app                  only the field app's figures (docs/performance.md): its files' size, and in
                         Chromium a first sync on 3G, a catch-up, idle checks, and opening offline and
                         searching with the CPU slowed 4 times
  --big-import ORDERS         only time the import of a file of ORDERS orders (and a tenth as many
                              customers), with the importer's peak memory: minutes and gigabytes
  --scale      the scale run (docs/scaling.md): --customers and --orders default to 200000 and
               2000000, compared with a tenth of each; writes ${SCALE_RESULTS_FILE}; 20 minutes or more`,
};

const OPTIONS = {
  duration: { type: "string", value: "SECONDS" },
  rounds: { type: "string", value: "N" },
  connections: { type: "string", value: "N" },
  warmup: { type: "string", value: "SECONDS" },
  customers: { type: "string", value: "N" },
  orders: { type: "string", value: "M" },
  "big-import": { type: "string", value: "ORDERS" },
  usage: { type: "string", value: "MODES" },
  "usage-only": { type: "boolean" },
  "rotation-only": { type: "boolean" },
  sync: { type: "boolean" },
  scale: { type: "boolean" },
  app: { type: "boolean" },
} as const;

/** `--usage 60,off,0`: the USAGE_FLUSH_SECONDS values to compare ("" for wrangler.toml's 60). */
function usageModes(value: string | undefined): string[] {
  if (value === "none") return [];
  const modes = (value ?? "60,off").split(",").map((m) => m.trim());
  for (const m of modes)
    if (m !== "off" && !/^\d{1,6}$/.test(m))
      throw new UsageError(`--usage takes "off" or whole seconds, comma-separated, got "${m}"`);
  if (new Set(modes).size !== modes.length) throw new UsageError(`--usage names a value twice: "${value}"`);
  return modes.map((m) => (m === "60" ? "" : m));
}

function options(argv: string[]) {
  const { values } = parseCommandLine(argv, COMMAND, OPTIONS);
  const scale = values.scale === true;
  const opts = {
    scale,
    load: {
      seconds: wholeNumber("duration", values.duration, 6, 1),
      connections: wholeNumber("connections", values.connections, 16, 1),
      warmupSeconds: wholeNumber("warmup", values.warmup, 3, 1),
    } satisfies LoadOptions,
    rounds: wholeNumber("rounds", values.rounds, 3, 1),
    customers: wholeNumber("customers", values.customers, scale ? 200_000 : 20_000, 1),
    orders: wholeNumber("orders", values.orders, scale ? 2_000_000 : 200_000, 0),
    usage: usageModes(values.usage),
    usageOnly: values["usage-only"] === true,
    rotationOnly: values["rotation-only"] === true,
    sync: values.sync === true,
    app: values.app === true,
    bigImport: values["big-import"] === undefined ? undefined : wholeNumber("big-import", values["big-import"], 0, 10),
  };
  if (opts.usageOnly && opts.usage.length === 0) throw new UsageError("--usage-only needs at least one --usage value");
  return opts;
}

/** Prints the summary and writes it to `file`; the run's exit status. */
function written(markdown: string, file = RESULTS_FILE): number {
  mkdirSync("bench-results", { recursive: true });
  writeFileSync(file, `${markdown}\n`);
  console.log(`\n${markdown}\nWritten to ${file}.`);
  return 0;
}

/** `--big-import ORDERS`: generate (or reuse) that file, import it into an empty state, print the figures. */
async function bigImport(run: PerfRun, orders: number): Promise<number> {
  const { largeDataset } = await import("./bench/state.ts");
  const { measureImport } = await import("./bench/big-import.ts");
  const customers = Math.max(1, Math.floor(orders / 10));
  mkdirSync(CACHE_DIR, { recursive: true });
  run.step(`dataset: ${customers} customers, ${orders} orders`);
  const dataset = await largeDataset(CACHE_DIR, customers, orders);
  run.step(`${dataset.cached ? "reusing" : "generated"} ${dataset.file}`);
  const figures = await measureImport(dataset.file, join(run.dir, "state"));
  run.step(figures.summary);
  run.step(
    `import of ${orders} orders: ${figures.seconds.toFixed(1)} s; peak memory ${figures.peakTreeMib.toFixed(0)} MiB ` +
      `for the importer's processes together, ${figures.peakProcessMib.toFixed(0)} MiB the largest one (at the peak: ${figures.atPeak})`,
  );
  return 0;
}

runPerf(COMMAND, "bench", async (open) => {
  const opts = options(process.argv.slice(2));
  const perf = open();
  const step = (message: string) => perf.step(message);
  if (opts.bigImport !== undefined) return bigImport(perf, opts.bigImport);
  if (opts.app) {
    const { fieldAppFigures } = await import("./bench/field-app.ts");
    const lines = await fieldAppFigures(perf);
    return written(
      [
        `# npm run bench -- --app: ${new Date().toISOString()}`,
        "",
        "- Command: `npm run bench -- --app`",
        "",
        ...lines,
      ].join("\n"),
      "bench-results/app.md",
    );
  }
  if (opts.rotationOnly) {
    const { compareRotation } = await import("./bench/rotation.ts");
    const lines = await compareRotation(perf, opts.load, opts.rounds);
    return written(
      [
        `# npm run bench -- --rotation-only: ${new Date().toISOString()}`,
        "",
        `- Command: \`npm run bench -- --rotation-only --duration ${opts.load.seconds} --rounds ${opts.rounds} --connections ${opts.load.connections} --warmup ${opts.load.warmupSeconds}\``,
        "",
        ...lines,
      ].join("\n"),
    );
  }
  if (opts.sync) {
    // Each in a process of its own: each opens its own fresh local state through PERSIST_DIR.
    const { run } = await import("./lib/processes.ts");
    for (const script of ["scripts/perf/sync-import.ts", "scripts/perf/sync.ts"]) {
      const { code } = await run(process.execPath, ["--import", "tsx", script], {}, "terminal");
      if (code !== 0) return code;
    }
    return 0;
  }
  if (opts.scale) {
    const { runScale } = await import("./bench/scale.ts");
    mkdirSync(CACHE_DIR, { recursive: true });
    return written(await runScale(perf, { ...opts, cacheDir: CACHE_DIR }), SCALE_RESULTS_FILE);
  }
  // Loaded once the command line is known to be good: wrangler and autocannon are large modules.
  const { bundleSize } = await import("./bench/bundle.ts");
  const { loadRunner, ratioRounds } = await import("./bench/runner.ts");
  const { toMarkdown } = await import("./bench/report.ts");
  const { startFloors } = await import("./bench/servers.ts");
  const { findCreateTemplate, findTargets, importInto, largeDataset } = await import("./bench/state.ts");
  const { compareUsage, createRequests, modeName, usageLines, usageMarkdown } = await import("./bench/usage.ts");
  const { measureOrdersWalk, measureRowsRead, measureWalk } = await import("./bench/rows.ts");
  const started = new Date();
  const loadBefore = loadavg();
  if (loadBefore[0]! > 2)
    step(`note: the 1-minute load average is ${loadBefore[0]!.toFixed(2)}; figures will be noisy`);
  mkdirSync(CACHE_DIR, { recursive: true });
  const work = perf.dir;
  step(`working in ${work}`);

  step(`dataset: ${opts.customers} customers, ${opts.orders} orders`);
  const dataset = await largeDataset(CACHE_DIR, opts.customers, opts.orders);
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
  if (opts.usageOnly) {
    const usage = (await compareUsageModes())!;
    const markdown = [
      `# npm run bench -- --usage-only: ${started.toISOString()}`,
      "",
      `- Command: \`npm run bench -- --usage-only --usage ${opts.usage.map((m) => m || "60").join(",")} --duration ${opts.load.seconds} --rounds ${opts.rounds} --connections ${opts.load.connections} --warmup ${opts.load.warmupSeconds} --customers ${opts.customers} --orders ${opts.orders}\``,
      `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, Node ${process.version}; load average (1/5/15 min) before ${loadBefore.map((x) => x.toFixed(2)).join(" / ")}, after ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" / ")}`,
      ...(reloads.some((n) => n > 0)
        ? ["- **wrangler rebuilt the worker during the measurements (a source file changed): rerun on a quiet tree.**"]
        : []),
      "",
      ...usageMarkdown(usage),
    ].join("\n");
    return written(markdown);
  }

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

  // The first sync of one agent's book (scripts/perf/sync-book.ts), a warm-up sync then the rounds.
  const { dataset: syncBook, CUSTOMERS: BOOK_CUSTOMERS, ORDERS: BOOK_ORDERS } = await import("./perf/sync-book.ts");
  const { firstSyncRounds, wholeSync } = await import("./bench/sync.ts");
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
    command: `npm run bench -- --duration ${opts.load.seconds} --rounds ${opts.rounds} --connections ${opts.load.connections} --warmup ${opts.load.warmupSeconds} --customers ${opts.customers} --orders ${opts.orders}`,
    started,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, Node ${process.version}`,
    loadBefore,
    loadAfter: loadavg(),
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
  return written(toMarkdown(summary));
});
