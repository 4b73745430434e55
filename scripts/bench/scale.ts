// `npm run bench -- scale` (docs/scaling.md): the service on a large dataset beside one a tenth its size: the
// import's time and memory, bytes per order, each page's latency and rows read at both sizes, GET /sync, a second
// import changing 1% of the records, and throughput against the logged floors.
import { join } from "node:path";
import { type Figures, type LoadOptions, median, num, tableHead } from "./cannon.ts";
import {
  auth,
  findTargets,
  largeDataset,
  makeKey,
  type PerfRun,
  query,
  ratioRounds,
  type Server,
  type Targets,
} from "./harness.ts";
import { databaseSize, type DatabaseSize, measureImport, type ImportFigures } from "./big-import.ts";
import { changedCopy } from "./changed.ts";
import { pageCost } from "./rows.ts";
import { startFloors } from "./servers.ts";
import { syncPath, wholeSync, type WholeSync } from "./sync.ts";

export interface ScaleOptions {
  customers: number;
  orders: number;
  rounds: number;
  load: LoadOptions;
  cacheDir: string;
}

/** What the issue asks of each figure (docs/scaling.md). */
const GOALS = {
  importSeconds: 600,
  importMib: 300,
  p50Ratio: 1.1,
  constant: 0.95,
  customers: 0.85,
  orders: 0.8,
  caughtUpSync: 0.9,
};

interface Size {
  name: "large" | "small";
  customers: number;
  orders: number;
  file: string;
  state: string;
  imported: ImportFigures;
  database: DatabaseSize;
  key: string;
  targets: Targets;
  /** The sales agent with the most customers: the book that sync is measured on. */
  agent: { id: number; customers: number };
  server?: Server;
}

interface PagePair {
  label: string;
  /** Rows read by one request, and per item it answered (a customer; an order, line or invoice). */
  rows: Record<"small" | "large", { rows: number; items: number }>;
  /** Per round, each size's figures; the p50 ratio is the median round's. */
  rounds: { small: Figures; large: Figures }[];
}

async function lastSyncSeq(state: string): Promise<number> {
  const [row] = await query<{ seq: number }>(state, "SELECT coalesce(max(seq), 0) AS seq FROM sync_changes");
  return row?.seq ?? 0;
}

/** The change log's entries after `seq`: customers and orders, and those in one agent's book. */
async function syncLogSince(
  state: string,
  seq: number,
  agent: number,
): Promise<{ customers: number; orders: number; agent: number }> {
  const rows = await query<{ kind: string; n: number; mine: number }>(
    state,
    `SELECT kind, count(*) AS n, sum(book = ${agent}) AS mine FROM sync_changes WHERE seq > ${seq} GROUP BY kind`,
  );
  const of = (kind: string) => rows.find((r) => r.kind === kind);
  return {
    customers: of("customer")?.n ?? 0,
    orders: of("order")?.n ?? 0,
    agent: (of("customer")?.mine ?? 0) + (of("order")?.mine ?? 0),
  };
}

/** The sales agent with the most customers (a kept count: no scan). */
async function busiestAgent(state: string): Promise<{ id: number; customers: number }> {
  const [row] = await query<{ id: number; n: number }>(
    state,
    "SELECT agent_id AS id, n FROM agent_customer_counts ORDER BY n DESC, agent_id LIMIT 1",
  );
  if (!row) throw new Error("the imported dataset has no sales agent with customers");
  return { id: row.id, customers: row.n };
}

const mib = (bytes: number) => `${num(bytes / 1048576)} MiB`;
const ratio = (a: number, b: number) => (b === 0 ? NaN : a / b);
const verdict = (met: boolean) => (met ? "met" : "**short**");

/**
 * Equal rows at both sizes; or, where the two pages answer different lines (the orders of two
 * datasets' busiest customers), each within the page bound of docs/specification.md section 4.
 */
function rowsVerdict(pair: PagePair): string {
  const { small, large } = pair.rows;
  if (small.rows === large.rows) return "equal: met";
  const within = (r: { rows: number; items: number }) => r.rows <= 4 * r.items + 10;
  return within(small) && within(large)
    ? "within the bound (4 per order, line and invoice + 10) at both sizes: met"
    : "**short**";
}

export async function runScale(perf: PerfRun, opts: ScaleOptions): Promise<string[]> {
  const step = (message: string) => perf.step(message);
  const run = perf.runner(opts.load);

  // Both datasets first (the same generator and seed; the small one a tenth of the large).
  const plan = [
    { name: "large" as const, customers: opts.customers, orders: opts.orders },
    {
      name: "small" as const,
      customers: Math.max(1, Math.floor(opts.customers / 10)),
      orders: Math.floor(opts.orders / 10),
    },
  ];
  const sizes: Size[] = [];
  for (const p of plan) {
    step(`dataset (${p.name}): ${num(p.customers)} customers, ${num(p.orders)} orders ...`);
    const dataset = await largeDataset(opts.cacheDir, p.customers, p.orders);
    step(`${dataset.cached ? "reusing" : "generated"} ${dataset.file}`);
    const state = join(perf.dir, `${p.name}-state`);
    step(`npm run db:import (${p.name}) into ${state} ...`);
    const imported = await measureImport(dataset.file, state);
    step(
      `import (${p.name}): ${imported.seconds.toFixed(1)} s, peak ${imported.peakTreeMib.toFixed(0)} MiB for the process tree ` +
        `(at the peak: ${imported.atPeak})`,
    );
    const database = databaseSize(state);
    step(
      `database (${p.name}): ${mib(database.fileBytes)} file, ${mib(database.usedBytes)} in use, ` +
        `${num(database.fileBytes / p.orders)} bytes per order`,
    );
    const key = await makeKey(state, "bench-scale");
    const targets = await findTargets(state);
    const agent = await busiestAgent(state);
    step(`${p.name}: busiest customer ${targets.orders} orders; agent ${agent.id} has ${agent.customers} customers`);
    sizes.push({ ...p, file: dataset.file, state, imported, database, key, targets, agent });
  }
  const [large, small] = sizes as [Size, Size];

  const floors = await startFloors(perf, large.state);
  large.server = await perf.serveApi("api-large", "dev", large.state);
  small.server = await perf.serveApi("api-small", "dev", small.state);
  step(`floors at ${floors.url}; API (large) at ${large.server.url}, (small) at ${small.server.url}`);

  // Rows read and latency of the same requests at both sizes, the two sizes alternating in each round.
  const pagePath = {
    customers: () => "/api/customers?count=10",
    orders: (s: Size) => `/api/orders?phone_number=${s.targets.phone}&count=10`,
  };
  const pairs: PagePair[] = [];
  for (const [label, path] of [
    ["GET /customers (10)", pagePath.customers],
    ["GET /orders (10, busiest customer)", pagePath.orders],
  ] as const) {
    const rows = {
      small: await pageCost(small.server.url, small.key, path(small)),
      large: await pageCost(large.server.url, large.key, path(large)),
    };
    const pair: PagePair = { label, rows, rounds: [] };
    for (let i = 0; i < opts.rounds; i++) {
      pair.rounds.push({
        small: await run(`${label} (small)`, small.server, path(small), auth(small.key)),
        large: await run(`${label} (large)`, large.server, path(large), auth(large.key)),
      });
    }
    pairs.push(pair);
  }

  const sync = new Map<
    "small" | "large",
    { whole: WholeSync; caughtUpRows: number; page: Figures; caughtUp: Figures }
  >();
  for (const s of [small, large]) {
    const whole = await wholeSync(s.server!.url, s.key, s.agent.id);
    const caughtUp = await wholeSync(s.server!.url, s.key, s.agent.id, whole.cursor);
    step(
      `sync (${s.name}): agent ${s.agent.id}'s whole first sync ${whole.records} records in ${whole.pages} pages, ` +
        `${whole.seconds.toFixed(1)} s, ${(whole.rows / Math.max(1, whole.records)).toFixed(1)} rows per record; ` +
        `first page ${whole.firstPage.rows} rows; caught-up ${caughtUp.rows} rows`,
    );
    sync.set(s.name, {
      whole,
      caughtUpRows: caughtUp.rows,
      page: await run(`GET /sync (first page of 200, ${s.name})`, s.server!, syncPath(s.agent.id), auth(s.key)),
      caughtUp: await run(
        `GET /sync (caught up, ${s.name})`,
        s.server!,
        syncPath(s.agent.id, whole.cursor),
        auth(s.key),
      ),
    });
  }
  await small.server.stop();

  // Throughput against the floors that write the log line every request writes, in rounds.
  const throughput: {
    label: string;
    floor: string;
    goal: number;
    median: number;
    ratios: number[];
    figures: Figures;
  }[] = [];
  const against = async (label: string, path: string, floor: "constant" | "one query", goal: number) => {
    const floorPath = floor === "constant" ? "/constant-logged" : "/select1-logged";
    const result = await ratioRounds(
      opts.rounds,
      () => run(`floor: ${floor} + log line`, floors, floorPath),
      () => run(label, large.server!, path, auth(large.key)),
    );
    throughput.push({
      label,
      floor: `${floor} + log line`,
      goal,
      median: median(result.ratios),
      ratios: result.ratios,
      figures: result.median.figures,
    });
  };
  await against("GET /area (cached)", "/api/area", "constant", GOALS.constant);
  await against(
    "GET /fetch-salesagent-by-pincode (cached)",
    `/api/fetch-salesagent-by-pincode?pincode=${large.targets.pincode}`,
    "constant",
    GOALS.constant,
  );
  await against("GET /customers (10)", pagePath.customers(), "one query", GOALS.customers);
  await against("GET /orders (10, busiest customer)", pagePath.orders(large), "one query", GOALS.orders);
  const largeSync = sync.get("large")!;
  await against(
    "GET /sync (caught up)",
    syncPath(large.agent.id, largeSync.whole.cursor),
    "one query",
    GOALS.caughtUpSync,
  );
  await large.server.stop();
  await floors.stop();

  // A second import: the same file with 1% of the customers and orders changed.
  step("second import: 1% of the customers and orders changed ...");
  const changed = await changedCopy(large.file);
  const seqBefore = await lastSyncSeq(large.state);
  const second = await measureImport(changed.file, large.state);
  const logged = await syncLogSince(large.state, seqBefore, large.agent.id);
  step(
    `sync log after the second import: ${logged.customers} customers and ${logged.orders} orders marked, ` +
      `${logged.agent} in agent ${large.agent.id}'s book`,
  );
  step(
    `second import: ${changed.customers} customers and ${changed.orders} orders changed; ${second.seconds.toFixed(1)} s, ` +
      `peak ${second.peakTreeMib.toFixed(0)} MiB (${second.summary})`,
  );
  const server = await perf.serveApi("api-large-after", "dev", large.state);
  const after = await wholeSync(server.url, large.key, large.agent.id, largeSync.whole.cursor);
  const deltas = { expected: changed.perAgent.get(large.agent.id) ?? 0, got: after.records, seconds: after.seconds };
  step(
    `sync after the second import: ${after.records} changes for agent ${large.agent.id} (${deltas.expected} expected)`,
  );
  await server.stop();

  // --- the report ---
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  push(
    `- Data: ${sizes.map((s) => `${s.name} ${num(s.customers)} customers, ${num(s.orders)} orders (${s.file})`).join("; ")}`,
    "",
    "## Import",
    "",
    ...tableHead(
      "size",
      "wall time (command)",
      "peak RSS of the tree",
      "at the peak (MiB)",
      "database file",
      "in use",
      "bytes per order",
    ),
    ...sizes.map(
      (s) =>
        `| ${num(s.orders)} orders | ${s.imported.seconds.toFixed(1)} s | ${s.imported.peakTreeMib.toFixed(0)} MiB | ${s.imported.atPeak} | ` +
        `${mib(s.database.fileBytes)} | ${mib(s.database.usedBytes)} | ${num(s.database.fileBytes / s.orders)} |`,
    ),
    "",
    `Goals at ${num(large.orders)} orders: under ${GOALS.importSeconds / 60} minutes (${verdict(large.imported.seconds < GOALS.importSeconds)}, ` +
      `${large.imported.seconds.toFixed(0)} s), under ${GOALS.importMib} MB (${verdict(large.imported.peakTreeMib * 1.048576 < GOALS.importMib)}, ` +
      `${num(large.imported.peakTreeMib * 1.048576)} MB).`,
    "",
    `Largest tables and indexes at ${num(large.orders)} orders: ${large.database.largest.map((t) => `${t.name} ${mib(t.bytes)}`).join(", ")}.`,
    "",
    `Importer summaries: ${sizes.map((s) => `${s.name}: ${s.imported.summary}`).join(" ")}`,
    "",
    "## Pages at both sizes",
    "",
    ...tableHead(
      "request",
      `rows read (${num(small.orders)} / ${num(large.orders)} orders)`,
      "per item answered",
      "p50 ms (small / large, median round)",
      "p99 ms",
      "p50 ratio",
      "goal",
    ),
  );
  for (const pair of pairs) {
    const perItem = (s: "small" | "large") => pair.rows[s].rows / Math.max(1, pair.rows[s].items);
    const ratios = pair.rounds.map((r) => ratio(r.large.p50, r.small.p50));
    const mid = median(ratios);
    const round = pair.rounds[ratios.indexOf(mid)]!;
    push(
      `| ${pair.label} | ${pair.rows.small.rows} / ${pair.rows.large.rows} | ${perItem("small").toFixed(2)} / ${perItem("large").toFixed(2)} | ` +
        `${round.small.p50} / ${round.large.p50} | ${round.small.p99} / ${round.large.p99} | ` +
        `${mid.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(", ")}) | ` +
        `rows ${rowsVerdict(pair)}, p50 ${verdict(mid <= GOALS.p50Ratio)} |`,
    );
  }
  push(
    "",
    "## GET /sync",
    "",
    ...tableHead(
      "size",
      "agent's book",
      "whole first sync",
      "rows per record",
      "first page of 200: rows, bytes",
      "caught up: rows",
      "page of 200 under load: req/s, p50, CPU ms per record",
      "caught up under load: req/s, p50",
    ),
    ...[small, large].map((s) => {
      const m = sync.get(s.name)!;
      const perRecord =
        m.page.cpuMs === null ? "?" : (m.page.cpuMs / Math.max(1, m.whole.firstPage.records)).toFixed(3);
      return (
        `| ${num(s.orders)} orders | agent ${s.agent.id}, ${m.whole.records} records | ${m.whole.seconds.toFixed(1)} s, ${m.whole.pages} pages | ` +
        `${(m.whole.rows / Math.max(1, m.whole.records)).toFixed(2)} | ${m.whole.firstPage.rows}, ${num(m.whole.firstPage.bytes)} | ${m.caughtUpRows} | ` +
        `${num(m.page.rps)}, ${m.page.p50} ms, ${perRecord} | ${num(m.caughtUp.rps)}, ${m.caughtUp.p50} ms |`
      );
    }),
    "",
    "## Throughput against the floors (median of the rounds)",
    "",
    ...tableHead("endpoint", "floor", "ratio", "rounds", "goal", "CPU ms per request", "rows read"),
    ...throughput.map(
      (t) =>
        `| ${t.label} | ${t.floor} | ${t.median.toFixed(2)} | ${t.ratios.map((r) => r.toFixed(2)).join(", ")} | ` +
        `${t.goal} ${verdict(t.median >= t.goal)} | ${t.figures.cpuMs?.toFixed(2) ?? "?"} | ${t.figures.work} |`,
    ),
    "",
    "## Second import (1% of the records changed)",
    "",
    `${num(changed.customers)} customers renamed and ${num(changed.orders)} orders given another delivery agent ` +
      `(${changed.file}): ${second.seconds.toFixed(1)} s for the command, peak ${second.peakTreeMib.toFixed(0)} MiB; ${second.summary}`,
    `Sync change log (sync_changes entries written by the second import): ${num(logged.customers)} customers and ` +
      `${num(logged.orders)} orders, against ${num(changed.inBooks.customers)} customers and ${num(changed.inBooks.orders)} orders ` +
      "in some agent's book whose records changed (an order shows its customer, so a renamed customer's orders change too): " +
      `${verdict(logged.customers === changed.inBooks.customers && logged.orders === changed.inBooks.orders)}; ` +
      `in agent ${large.agent.id}'s book ${logged.agent} against ${changed.perAgent.get(large.agent.id) ?? 0}.`,
    `Sync deltas for agent ${large.agent.id}: ${deltas.got} changes after the second import, ${deltas.expected} records of its book changed (${verdict(deltas.got === deltas.expected)}), ${deltas.seconds.toFixed(1)} s.`,
  );
  return lines;
}
