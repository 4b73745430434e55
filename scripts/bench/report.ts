// The api suite's figures as markdown (the harness writes the report's heading, command and machine).
import type { BundleSize } from "./bundle.ts";
import { type Figures, mean, median, num, tableHead } from "./cannon.ts";
import type { OrdersWalk, RowsRead, WalkCost } from "./rows.ts";

export type FloorName = "constant" | "one query";

export interface Row {
  figures: Figures;
  floor: FloorName;
  /** The floor measured just before this endpoint: ratios use it, so that the machine's drift cancels. */
  floorRun: Figures;
  /** Every round's ratio to its floor run; figures and floorRun are the median round's. */
  ratios: number[];
  /** Every round's floor run. */
  floorRuns: Figures[];
  /** The throughput ratio that the issue asks for, if any. */
  target?: number;
  /** Every round's CPU a request against its floor run's (null off Linux). */
  cpuRatios: (number | null)[];
  /** The most CPU a request may cost against the floor's, if any. */
  cpuTarget?: number;
}

/** A page's own D1 statements run by the floors worker, alone and with the log line, in rounds. */
export interface PageFloor {
  /** The endpoint row's label starts with "GET /" and this. */
  name: string;
  /** Each round: a one-query run, then the statements alone, then with the log line. */
  rounds: { oneQuery: Figures; alone: Figures; logged: Figures }[];
}

export interface Summary {
  dataset: string;
  imports: string[];
  options: { connections: number; seconds: number; warmupSeconds: number };
  /** The floors without the log line that the API and the rounds' floors write (for comparison). */
  bare: Record<FloorName, Figures>;
  rows: Row[];
  pageFloors: PageFloor[];
  /** Each endpoint's rows read (Server-Timing d1rows), and its next page's. */
  rowsRead: RowsRead[];
  walk: WalkCost;
  ordersWalk: OrdersWalk;
  ordersLarge: Figures;
  ordersDemo: Figures;
  ordersLargeCount: number;
  ordersDemoCount: number;
  bundle: BundleSize;
  /** Rebuilds by wrangler during the measurements (someone edited a source file). */
  reloads: number;
}

const P50_TARGET = 1.5;
const BUNDLE_TARGET_KIB = 150;

const ms = (n: number) => num(n, n < 10 ? 1 : 0);
const mark = (ok: boolean) => (ok ? "yes" : "**no**");
const cpuText = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
/** CPU a request against the floor's: the median round's, every round's in brackets, and the target's mark. */
function cpuRatio(row: Row): string {
  const known = row.cpuRatios.filter((r): r is number => r !== null);
  if (known.length === 0) return "n/a | ";
  const middle = median(known);
  const all = known.length > 1 ? ` (${known.map((r) => r.toFixed(2)).join(", ")})` : "";
  const target = row.cpuTarget === undefined ? "" : `<= ${row.cpuTarget}: ${mark(middle <= row.cpuTarget)}`;
  return `${middle.toFixed(2)}${all} | ${target}`;
}

/** Failed requests and a probe that was not answered 200, flagged after a label. */
const problemsOf = (f: Figures) =>
  (f.failures ? ` (**${num(f.failures)} failed**)` : "") +
  (f.status !== 200 ? ` (**probe answered ${f.status}**)` : "");

function header(s: Summary): string[] {
  const lines: string[] = [];
  if (s.reloads > 0) {
    lines.push(
      `- **wrangler rebuilt the worker ${s.reloads} time(s) during the measurements (a source file changed): rerun on a quiet tree.**`,
    );
  }
  lines.push(`- Dataset: ${s.dataset}`);
  for (const line of s.imports) lines.push(`- ${line}`);
  lines.push(
    `- Load: autocannon, ${s.options.connections} connections, ${s.options.seconds} s per run after a ${s.options.warmupSeconds} s warm-up, 127.0.0.1 only`,
    "- Servers: the API by `npm run dev` (RATE_LIMIT_PER_MINUTE=0, SERVER_TIMING on); the floors (scripts/bench/floors.ts) by a second `wrangler dev` on another port, running at the same time, in the same environment (wrangler's devtools inspector proxy off, as `npm run dev` has it; see docs/operations.md)",
    "- Each endpoint is measured in rounds, each right after a run of its floor. Its ratio is the median round's (every round's in brackets); its other figures are that round's.",
    "",
  );
  return lines;
}

function floors(s: Summary): string[] {
  const lines = ["## Floors", "", ...tableHead("floor", "req/s (each run)", "mean req/s", "mean CPU ms/request")];
  for (const [name, floor] of [
    ["constant JSON body + one log line", "constant"],
    ["one D1 `select 1` + one log line", "one query"],
  ] as const) {
    const runs = s.rows.filter((r) => r.floor === floor).flatMap((r) => r.floorRuns);
    const cpu = runs.map((r) => r.cpuMs);
    const cpuMean = cpu.every((c): c is number => c !== null) ? mean(cpu) : null;
    lines.push(
      `| ${name} | ${runs.map((r) => num(r.rps)).join(", ")} | ${num(mean(runs.map((r) => r.rps)))} | ${cpuText(cpuMean)} |`,
    );
  }
  for (const [name, floor] of [
    ["constant JSON body, no log line", "constant"],
    ["one D1 `select 1`, no log line", "one query"],
  ] as const) {
    const f = s.bare[floor];
    lines.push(`| ${name} (for comparison) | ${num(f.rps)} | ${num(f.rps)} | ${cpuText(f.cpuMs)} |`);
  }
  const share = (floor: FloorName) =>
    (
      mean(s.rows.filter((r) => r.floor === floor).flatMap((r) => r.floorRuns.map((f) => f.rps))) / s.bare[floor].rps
    ).toFixed(2);
  lines.push(
    "",
    `With the log line the constant floor runs at ${share("constant")} of itself without it, and the one-query floor at ${share("one query")}. ` +
      "The endpoints are measured against the floors with the line, since docs/specification.md requires it of every request.",
  );
  lines.push(
    "",
    "CPU ms/request: CPU time of all the server's processes (workerd, wrangler) during a run, per request served; steadier than req/s when " +
      "other work shares the machine. Under `wrangler dev` the log line is costly: wrangler parses each line from workerd's output, " +
      "prints it and appends it to its own log file.",
    "",
  );
  return lines;
}

function endpoints(s: Summary): string[] {
  const lines = [
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
      "ratio to the floor without the log line",
    ),
  ];
  for (const row of s.rows) {
    const f = row.figures;
    const ratio = f.rps / row.floorRun.rps;
    const problems = problemsOf(f);
    const target = row.target === undefined ? " | " : `>= ${row.target} | ${mark(ratio >= row.target)}`;
    lines.push(
      `| ${f.label}${problems} | ${f.work} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${cpuText(f.cpuMs)} | ` +
        `${row.floor} (${num(row.floorRun.rps)}) | ${ratio.toFixed(2)}${row.ratios.length > 1 ? ` (${row.ratios.map((r) => r.toFixed(2)).join(", ")})` : ""} | ` +
        `${target} | ${cpuRatio(row)} | ` +
        `${(f.rps / s.bare[row.floor].rps).toFixed(2)} |`,
    );
  }
  lines.push(
    "",
    "CPU / floor's CPU: the endpoint's CPU ms a request against its floor run's in the same round (all the servers' processes); the median round's, every round's in brackets.",
    "",
  );
  return lines;
}

function pageFloors(s: Summary): string[] {
  const lines = [
    "## The pages' own D1 work",
    "",
    "The floors worker runs a page's statements (the API's compiled queries, bound as the API binds them, on a copy of the same data) " +
      "in one batch and answers the constant body: no authentication, mapping, shaping or serialization. With the log line, that is as " +
      "high as the page's ratio can go.",
    "",
    ...tableHead(
      "page",
      "one query + log line (mean req/s)",
      "statements alone: req/s, median ratio (rounds)",
      "statements + log line: req/s, median ratio (rounds)",
      "the endpoint's ratio",
    ),
  ];
  for (const p of s.pageFloors) {
    const row = s.rows.find((r) => r.figures.label.startsWith(`GET /${p.name}`));
    const of = (which: "alone" | "logged") => {
      const ratios = p.rounds.map((r) => r[which].rps / r.oneQuery.rps);
      const middle = median(ratios);
      const rps = p.rounds[ratios.indexOf(middle)]![which];
      const all = ratios.length > 1 ? ` (${ratios.map((r) => r.toFixed(2)).join(", ")})` : "";
      return `${num(rps.rps)}, ${middle.toFixed(2)}${all}${p.rounds.map((r) => problemsOf(r[which])).join("")}`;
    };
    const oneQuery = mean(p.rounds.map((r) => r.oneQuery.rps));
    const endpoint = row ? `${(row.figures.rps / row.floorRun.rps).toFixed(2)}` : "n/a";
    lines.push(`| ${p.name} | ${num(oneQuery)} | ${of("alone")} | ${of("logged")} | ${endpoint} |`);
  }
  lines.push("");
  return lines;
}

function rowsRead(s: Summary): string[] {
  const w = s.walk;
  return [
    "## Rows read from D1 per request",
    "",
    "Server-Timing `d1rows` (the sum of D1's own `rows_read` over the request's statements: what D1 bills and waits for), one request each on the large dataset.",
    "",
    ...tableHead("request", "rows read", "its next_page_url (cursor)"),
    ...s.rowsRead.map((r) => `| ${r.label} | ${num(r.first)} | ${r.next === null ? "" : num(r.next)} |`),
    "",
    `Walking all ${num(w.customers)} customers, 100 a page (${num(w.pages)} pages): ${num(w.byCursor)} rows by following next_page_url ` +
      `(at most ${num(w.maxCursorPage)} a page), ${num(w.byPage)} by page=1..N (at most ${num(w.maxPageN)} a page).`,
    "",
    `The cursor walk saw ${num(w.customers)} distinct customers: ${w.repeated} seen twice, ${w.missed} missed; the customer created ` +
      `after its second page was seen ${w.createdMidWalkSeen} time(s); ${w.pagesOverBound} page(s) read more than 8 rows a customer plus 10. ` +
      `By 10: the first page read ${w.firstOf10} rows (bound 90), the deepest page by next_page_url ${w.deepestOf10} ` +
      `(bound ${Math.floor(1.25 * w.firstOf10 + 20)}).`,
    "",
    `The busiest customer's ${num(s.ordersWalk.orders)} orders by next_page_url, 10 a page (${s.ordersWalk.pages} pages): at most ` +
      `${num(s.ordersWalk.maxPage)} rows a page; ${s.ordersWalk.pagesOverBound} page(s) over 4 rows per order, line and invoice ` +
      `plus 10.`,
    "",
  ];
}

export function toMarkdown(s: Summary): string[] {
  const p50Ratio = s.ordersLarge.p50 / s.ordersDemo.p50;
  const kib = s.bundle.gzipBytes / 1024;
  return [
    ...header(s),
    ...floors(s),
    ...endpoints(s),
    ...pageFloors(s),
    ...rowsRead(s),
    "## Orders page latency and data size",
    "",
    ...tableHead("dataset", "customer's orders", "req/s", "p50 ms", "p99 ms"),
    `| large | ${num(s.ordersLargeCount)} | ${num(s.ordersLarge.rps)} | ${ms(s.ordersLarge.p50)} | ${ms(s.ordersLarge.p99)} |`,
    `| demo (data/demo.json) | ${num(s.ordersDemoCount)} | ${num(s.ordersDemo.rps)} | ${ms(s.ordersDemo.p50)} | ${ms(s.ordersDemo.p99)} |`,
    "",
    `p50 large / demo: ${p50Ratio.toFixed(2)} (target <= ${P50_TARGET}: ${mark(p50Ratio <= P50_TARGET)})`,
    "",
    "## Bundle",
    "",
    `\`wrangler deploy --dry-run --outdir\`: ${num(s.bundle.bytes / 1024, 1)} KiB, gzipped ${num(kib, 1)} KiB ` +
      `(target < ${BUNDLE_TARGET_KIB} KiB: ${mark(kib < BUNDLE_TARGET_KIB)}). wrangler: ${s.bundle.wranglerLine || "n/a"}`,
  ];
}
