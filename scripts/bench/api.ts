// `npm run bench -- api`: the API's figures on a generated dataset imported with `npm run db:import` and served by
// `npm run dev`: each endpoint loaded beside the floors (scripts/bench/floors.ts) served at the same time, rows
// read per page, the worker's own time inside its isolate, the pages' statements in SQLite alone, the orders page beside
// the demo dataset's, the first sync of the sync suite, and the gzipped bundle.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import { wrangler } from "../lib/processes.ts";
import { API_CONFIG, apiEnvArgs } from "../lib/workers.ts";
import {
  auth,
  type Figures,
  findTargets,
  getJson,
  importInto,
  largeDataset,
  type LoadOptions,
  makeKey,
  mean,
  median,
  num,
  type PerfRun,
  rounds,
  tableHead,
} from "./harness.ts";
import { type FloorName, STATEMENT_TARGETS } from "./own-time.paths.ts";
import { ownTimeFigures } from "./own-time.ts";
import { statementFigures } from "./statements.ts";
import { firstSyncs, serveBook } from "./sync.ts";

export type ApiOptions = { load: LoadOptions; rounds: number; customers: number; orders: number; cacheDir: string };

const FLOOR_PATHS: Record<FloorName, string> = { constant: "/constant-logged", "one query": "/select1-logged" };
/** The floors answering an endpoint's own body and headers (`PUT /answer`). */
const ANSWER_PATHS: Record<FloorName, string> = { constant: "/answer-logged", "one query": "/select1-answer-logged" };
const P50_TARGET = 1.5;
const BUNDLE_TARGET_KIB = 150;

/** The floor that a round is held against: the mean of its runs before and after. */
const meanOf = (a: Figures, b: Figures): Figures => ({
  ...a,
  rps: (a.rps + b.rps) / 2,
  cpuMs: a.cpuMs === null || b.cpuMs === null ? null : (a.cpuMs + b.cpuMs) / 2,
});
const ms = (n: number) => num(n, n < 10 ? 1 : 0);
const mark = (ok: boolean) => (ok ? "yes" : "**no**");
const cpuText = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
/** Failed requests and a probe that was not answered 200, flagged after a label. */
const problemsOf = (f: Figures) =>
  (f.failures ? ` (**${num(f.failures)} failed**)` : "") +
  (f.status !== 200 ? ` (**probe answered ${f.status}**)` : "");

/** Sets the floors' "/answer" to the endpoint's own body and headers (but its length, which workerd writes). */
async function setAnswerFloor(floorsUrl: string, url: string, key: string) {
  const res = await fetch(url, { headers: auth(key) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
  const headers = [...res.headers].filter(([name]) => name !== "content-length");
  const set = await fetch(`${floorsUrl}/answer`, { method: "PUT", body: JSON.stringify({ headers, body }) });
  if (set.status !== 204) throw new Error(`the floors' PUT /answer answered ${set.status}`);
  return { bytes: Buffer.byteLength(body), headerBytes: headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0) };
}

/** An endpoint against its answer's floor, and that floor against its own floor, the median rounds'. */
function answerRow(
  label: string,
  answer: { bytes: number; headerBytes: number },
  done: { floorRun: Figures; figures: Figures; answerRun: Figures }[],
) {
  const ratios = (of: (r: (typeof done)[number]) => [Figures, Figures]) => {
    const pairs = done.map(of);
    const rps = pairs.map(([a, b]) => a.rps / b.rps);
    const cpu = pairs.flatMap(([a, b]) => (a.cpuMs === null || b.cpuMs === null ? [] : [a.cpuMs / b.cpuMs]));
    return `${rounds(rps)} | ${cpu.length ? rounds(cpu) : "n/a"}`;
  };
  const answerRuns = done.map((r) => r.answerRun);
  return (
    `| ${label} | ${num(answer.bytes)} + ${num(answer.headerBytes)} | ${num(median(answerRuns.map((f) => f.rps)))} | ` +
    `${ratios((r) => [r.answerRun, r.floorRun])} | ${ratios((r) => [r.figures, r.answerRun])} |`
  );
}

const orderRow = (name: string, orders: number, f: Figures) =>
  `| ${name} | ${num(orders)} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} |`;

/** Every page from `url` on by next_page_url: pages, items of `member`, rows read in all and at most a page. */
async function walk(url: string, key: string, member: string) {
  const w = { pages: 0, items: 0, rows: 0, maxRows: 0 };
  for (let next: string | null = url; next; w.pages++) {
    const { body, rows } = await getJson(next, key);
    w.items += body.data[member].length;
    w.rows += rows;
    w.maxRows = Math.max(w.maxRows, rows);
    next = body.data.pagination.next_page_url;
  }
  return w;
}

export async function apiFigures(perf: PerfRun, opts: ApiOptions): Promise<string[]> {
  perf.step(`dataset: ${opts.customers} customers, ${opts.orders} orders`);
  const { file, cached } = await largeDataset(opts.cacheDir, opts.customers, opts.orders);
  perf.step(`${cached ? "reusing" : "generated"} ${file}; npm run db:import ...`);
  const state = join(perf.dir, "large-state");
  const imported = await importInto(state, file);
  perf.step(imported.summary);
  const [key, large] = [await makeKey(state, "bench"), await findTargets(state)];
  const demoState = join(perf.dir, "demo-state");
  perf.step("npm run db:import (demo dataset) ...");
  const demoImport = await importInto(demoState, DEMO_OPTIONS.out);
  const [demoKey, demo] = [await makeKey(demoState, "bench"), await findTargets(demoState)];
  const run = perf.runner(opts.load);

  const floors = await perf.serveFloors(state);
  const api = await perf.serveApi("api-large", "dev", state);
  perf.step("rows read per request (Server-Timing d1rows) ...");
  const pincodePath = `/api/fetch-salesagent-by-pincode?pincode=${large.pincode}`;
  const ordersPath = `/api/orders?phone_number=${large.phone}&count=10`;
  const ordersLabel = `GET /orders (10 of ${large.orders})`;
  // Each request's rows read, and those of the page its next_page_url leads to.
  const rowsRead: string[] = [];
  for (const [label, path] of [
    ["GET /customers (10)", "/api/customers?count=10"],
    ["GET /customers (100)", "/api/customers?count=100"],
    ["GET /customers (10, page 100 by page=N)", "/api/customers?count=10&page=100"],
    [ordersLabel, ordersPath],
    [`GET /orders (100 of ${large.orders})`, `/api/orders?phone_number=${large.phone}&count=100`],
    ["GET /orders (unknown phone, 404)", "/api/orders?phone_number=9999999999"],
    ["GET /postalcodes (10)", "/api/postalcodes?count=10"],
    ["GET /postalcodes (code)", `/api/postalcodes?code=${large.pincode}`],
    ["GET /salesagents (10)", "/api/salesagents?count=10"],
    ["GET /area (first, empty cache)", "/api/area"],
    ["GET /fetch-salesagent-by-pincode (first, empty cache)", pincodePath],
  ] as const) {
    const first = await getJson(`${api.url}${path}`, key, [200, 404]);
    const next: string | undefined = first.body.data?.pagination?.next_page_url;
    rowsRead.push(`| ${label} | ${num(first.rows)} | ${next ? num((await getJson(next, key)).rows) : ""} |`);
  }
  // Every customer 100 a page by next_page_url, then by page=1..N; the busiest customer's orders 10 a page.
  const walked = await walk(`${api.url}/api/customers?count=100`, key, "customers");
  const byPage = { rows: 0, maxRows: 0 };
  for (let page = 1; page <= walked.pages; page++) {
    const { rows } = await getJson(`${api.url}/api/customers?count=100&page=${page}`, key);
    byPage.rows += rows;
    byPage.maxRows = Math.max(byPage.maxRows, rows);
  }
  const ordersWalk = await walk(`${api.url}${ordersPath}`, key, "orders");

  // Issue 40's targets: throughput against the floor, and CPU a request at most so many times the floor's.
  const endpoints: [label: string, path: string, floor: FloorName, target?: number, cpuTarget?: number][] = [
    ["GET /area (cached)", "/api/area", "constant", 0.9, 1.15],
    ["GET /fetch-salesagent-by-pincode (cached)", pincodePath, "constant", 0.9, 1.15],
    ["GET /customers (10)", "/api/customers?count=10", "one query", 0.9, 1.25],
    [ordersLabel, ordersPath, "one query", 0.85, 1.25],
    ["GET /postalcodes (10)", "/api/postalcodes?count=10", "one query"],
    ["GET /salesagents (10)", "/api/salesagents?count=10", "one query"],
  ];
  const floorRuns: Record<FloorName, Figures[]> = { constant: [], "one query": [] };
  const endpointRows: string[] = [];
  const answerRows: string[] = [];
  let ordersLarge: Figures | undefined;
  for (const [label, path, floor, target, cpuTarget] of endpoints) {
    // Each endpoint is also held against its floor answering the endpoint's own bytes and headers: what the answer
    // costs `wrangler dev` apart from the worker's work (docs/performance.md, "The answer's own floor").
    const answer = await setAnswerFloor(floors.url, `${api.url}${path}`, key);
    // Each round between two runs of its floor, against their mean: the machine's speed drifts by 10-20% within
    // minutes, and a floor run on one side only takes the drift as the endpoint's. The median round's ratio is steadier.
    const floorSeries = [await run(`floor: ${floor}`, floors, FLOOR_PATHS[floor])];
    const done: { floorRun: Figures; figures: Figures; answerRun: Figures }[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      const figures = await run(label, api, path, auth(key));
      const answerRun = await run(`floor: ${floor}, the endpoint's answer`, floors, ANSWER_PATHS[floor]);
      floorSeries.push(await run(`floor: ${floor}`, floors, FLOOR_PATHS[floor]));
      done.push({ figures, answerRun, floorRun: meanOf(floorSeries.at(-2)!, floorSeries.at(-1)!) });
    }
    answerRows.push(answerRow(label, answer, done));
    floorRuns[floor].push(...floorSeries);
    const ratios = done.map((r) => r.figures.rps / r.floorRun.rps);
    const { figures: f, floorRun } = done[ratios.indexOf(median(ratios))]!;
    if (label === ordersLabel) ordersLarge = f;
    const ratio = median(ratios);
    const cpuRatios = done.flatMap((r) =>
      r.figures.cpuMs === null || r.floorRun.cpuMs === null ? [] : [r.figures.cpuMs / r.floorRun.cpuMs],
    );
    const cpu = cpuRatios.length ? median(cpuRatios) : null;
    endpointRows.push(
      `| ${f.label}${problemsOf(f)} | ${f.work} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${cpuText(f.cpuMs)} | ` +
        `${floor} (${num(floorRun.rps)}) | ${rounds(ratios)} | ` +
        `${target === undefined ? " | " : `>= ${target} | ${mark(ratio >= target)}`} | ` +
        `${cpu === null ? "n/a" : rounds(cpuRatios)} | ${cpuTarget === undefined || cpu === null ? "" : `<= ${cpuTarget}: ${mark(cpu <= cpuTarget)}`} |`,
    );
  }
  const reloads = api.reloads() + floors.reloads();
  await api.stop();
  await floors.stop();
  const ownTime = await ownTimeFigures(
    perf,
    state,
    key,
    endpoints.map(([label, path, floor]) => {
      const statement = path.startsWith("/api/customers")
        ? STATEMENT_TARGETS.customers
        : path.startsWith("/api/orders")
          ? STATEMENT_TARGETS.orders(large.phone)
          : undefined;
      return { label, path, floor, statement };
    }),
    opts.rounds,
  );
  perf.step("the pages' statements in SQLite alone ...");
  const sqliteAlone = statementFigures(state, large.phone);

  const demoApi = await perf.serveApi("api-demo", "dev", demoState);
  const demoLabel = `GET /orders (10 of ${demo.orders}, demo data)`;
  const ordersDemo = await run(demoLabel, demoApi, `/api/orders?phone_number=${demo.phone}&count=10`, auth(demoKey));
  await demoApi.stop();

  // Issue 40's first-sync goal, printed with the others: the sync suite's own measurement.
  const book = await serveBook(perf);
  const firstSync = await firstSyncs(book, opts.rounds);
  await book.api.stop();

  // What `wrangler deploy` would upload: the dry-run build of `npm run check`, its JavaScript gzipped (source maps
  // are not part of the upload limit).
  perf.step("bundle: wrangler deploy --dry-run ...");
  const outDir = join(perf.dir, "dist");
  const printed = await wrangler(["deploy", "--dry-run", "-c", API_CONFIG, ...apiEnvArgs("test"), "--outdir", outDir], {
    capture: true,
  });
  const built = readdirSync(outDir)
    .filter((name) => /\.(m?js|wasm)$/.test(name))
    .map((name) => readFileSync(join(outDir, name)));
  const bytes = built.reduce((sum, content) => sum + content.length, 0);
  const kib = built.reduce((sum, content) => sum + gzipSync(content).length, 0) / 1024;
  const wranglerLine = printed.split("\n").find((line) => line.startsWith("Total Upload"));
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
    "- Each endpoint is measured in rounds, each between two runs of its floor and held against their mean. Its ratio is the " +
      "median round's (every round's in brackets); its other figures are that round's.",
    "",
    "## Floors",
    "",
    ...tableHead("| floor (each writes one log line) | req/s (each run) | mean req/s | mean CPU ms/request |"),
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
      "| endpoint | work per request | req/s | p50 ms | p99 ms | CPU ms/request | floor (req/s) | ratio | target | met | CPU / floor's CPU | CPU target |",
    ),
    ...endpointRows,
    "",
    "## Each endpoint against its answer's floor",
    "",
    "Its floor answering the endpoint's own body and headers (scripts/bench/floors.ts, `PUT /answer`), run in each " +
      "round after the endpoint: the first ratios are what the answer's bytes and headers cost `wrangler dev` against " +
      "the floor's own small answer, the second what the endpoint costs beyond its answer.",
    "",
    ...tableHead(
      "| endpoint | answer bytes (body + headers) | answer floor req/s | its ratio to the floor | its CPU / the floor's | endpoint's ratio to it | endpoint's CPU / its |",
    ),
    ...answerRows,
    "",
    "## Rows read from D1 per request",
    "",
    "Server-Timing `d1rows` (the sum of D1's own `rows_read` over the request's statements), one request each.",
    "",
    ...tableHead("| request | rows read | its next_page_url (cursor) |"),
    ...rowsRead,
    "",
    `Walking all ${num(walked.items)} customers, 100 a page (${num(walked.pages)} pages): ${num(walked.rows)} rows by following ` +
      `next_page_url (at most ${num(walked.maxRows)} a page), ${num(byPage.rows)} by page=1..N (at most ${num(byPage.maxRows)} a page).`,
    "",
    `The busiest customer's ${num(ordersWalk.items)} orders by next_page_url, 10 a page (${ordersWalk.pages} pages): at most ` +
      `${num(ordersWalk.maxRows)} rows a page.`,
    "",
    "## The worker's own time",
    "",
    ...ownTime,
    "",
    "## The pages' statements in SQLite alone",
    "",
    ...sqliteAlone,
    "",
    "## Orders page latency and data size",
    "",
    ...tableHead("| dataset | customer's orders | req/s | p50 ms | p99 ms |"),
    orderRow("large", large.orders, ordersLarge!),
    orderRow("demo (data/demo.json)", demo.orders, ordersDemo),
    "",
    `p50 large / demo: ${p50Ratio.toFixed(2)} (target <= ${P50_TARGET}: ${mark(p50Ratio <= P50_TARGET)})`,
    "",
    "## First sync",
    "",
    `One agent's book (\`npm run bench -- sync\`'s, scripts/bench/sync.ts), ${opts.rounds} rounds: ${firstSync.line}.`,
    "",
    "## Bundle",
    "",
    `\`wrangler deploy --dry-run --outdir\`: ${num(bytes / 1024, 1)} KiB, gzipped ${num(kib, 1)} KiB ` +
      `(target < ${BUNDLE_TARGET_KIB} KiB: ${mark(kib < BUNDLE_TARGET_KIB)}). wrangler: ${wranglerLine?.trim() ?? "n/a"}`,
  ];
}
