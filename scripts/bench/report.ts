// The benchmark's summary as markdown: printed, and written to bench-results/latest.md.
import type { BundleSize } from "./bundle.ts";
import type { Figures } from "./load.ts";

export interface Row {
  figures: Figures;
  /** The floor this endpoint is read against, and the ratio that meets the issue's target. */
  floor: "constant" | "one query";
  target?: number;
}

export interface Summary {
  command: string;
  started: Date;
  machine: string;
  loadBefore: number[];
  loadAfter: number[];
  dataset: string;
  imports: string[];
  options: { connections: number; seconds: number; warmupSeconds: number };
  floors: { constant: Figures[]; oneQuery: Figures[]; constantLogged: Figures; oneQueryLogged: Figures };
  rows: Row[];
  ordersLarge: Figures;
  ordersDemo: Figures;
  ordersLargeCount: number;
  ordersDemoCount: number;
  bundle: BundleSize;
}

const P50_TARGET = 1.5;
const BUNDLE_TARGET_KIB = 150;

const num = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => num(n, n < 10 ? 1 : 0);
const mark = (ok: boolean) => (ok ? "yes" : "**no**");
const mean = (list: number[]) => list.reduce((s, n) => s + n, 0) / list.length;
const runsOf = (s: Summary, floor: Row["floor"]) => (floor === "constant" ? s.floors.constant : s.floors.oneQuery);

export function floorRps(summary: Summary, floor: Row["floor"]): number {
  return mean(runsOf(summary, floor).map((f) => f.rps));
}

/** The floor that also writes one log line, as the API does. */
const loggedOf = (s: Summary, floor: Row["floor"]) => (floor === "constant" ? s.floors.constantLogged : s.floors.oneQueryLogged);

/** The floor's CPU time per request (null when it could not be read). */
function floorCpuMs(summary: Summary, floor: Row["floor"]): number | null {
  const cpu = runsOf(summary, floor).map((f) => f.cpuMs);
  return cpu.every((c): c is number => c !== null) ? mean(cpu) : null;
}

const cpuText = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));

export function toMarkdown(s: Summary): string {
  const lines: string[] = [];
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
  lines.push(`# npm run bench: ${s.started.toISOString()}`, "");
  lines.push(`- Command: \`${s.command}\``);
  lines.push(`- Machine: ${s.machine}; load average (1/5/15 min) before ${load(s.loadBefore)}, after ${load(s.loadAfter)}`);
  if (Math.max(s.loadBefore[0]!, s.loadAfter[0]!) > 2) {
    lines.push("- **The machine was busy (1-minute load above 2): the figures are lower and noisier than on a quiet machine.**");
  }
  lines.push(`- Dataset: ${s.dataset}`);
  for (const line of s.imports) lines.push(`- ${line}`);
  lines.push(
    `- Load: autocannon, ${s.options.connections} connections, ${s.options.seconds} s per endpoint after a ${s.options.warmupSeconds} s warm-up, 127.0.0.1 only`,
  );
  lines.push("- Servers: the API by `npm run dev` (RATE_LIMIT_PER_MINUTE=0, SERVER_TIMING on); the floors by a second `wrangler dev` on another port, running at the same time", "");

  lines.push(
    "## Floors",
    "",
    "| floor | req/s (each run) | mean req/s | p50 ms | p99 ms | CPU ms/request |",
    "|---|---|---|---|---|---|",
  );
  for (const [name, floor] of [["constant JSON body", "constant"], ["one D1 `select 1`", "one query"]] as const) {
    const runs = runsOf(s, floor);
    const last = runs[runs.length - 1]!;
    lines.push(
      `| ${name} | ${runs.map((r) => num(r.rps)).join(", ")} | ${num(floorRps(s, floor))} | ${ms(last.p50)} | ${ms(last.p99)} | ${cpuText(floorCpuMs(s, floor))} |`,
    );
  }
  for (const [name, floor] of [["constant JSON body + one log line", "constant"], ["one D1 `select 1` + one log line", "one query"]] as const) {
    const f = loggedOf(s, floor);
    lines.push(`| ${name} (for comparison) | ${num(f.rps)} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${cpuText(f.cpuMs)} |`);
  }
  lines.push(
    "",
    "CPU ms/request: CPU time of all the server's processes (workerd, wrangler) during the run, per request served. " +
      "It is steadier than req/s when other work shares the machine; its ratio (floor's CPU / endpoint's CPU) is shown beside the throughput ratio. " +
      "The logged floors write one JSON line per request, as SPEC.md has the API do: under `wrangler dev` each line goes through the inspector to wrangler, " +
      "which is what separates them from the plain floors; `ratio (logged)` reads the API against them.",
    "",
  );

  lines.push(
    "## Endpoints",
    "",
    "| endpoint | work per request | req/s | p50 ms | p99 ms | CPU ms/request | floor | ratio | target | met | CPU ratio | ratio (logged) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const row of s.rows) {
    const f = row.figures;
    const ratio = f.rps / floorRps(s, row.floor);
    const floorCpu = floorCpuMs(s, row.floor);
    const cpuRatio = floorCpu === null || f.cpuMs === null ? "n/a" : (floorCpu / f.cpuMs).toFixed(2);
    const failures = f.failures ? ` (**${num(f.failures)} failed**)` : "";
    lines.push(
      `| ${f.label}${failures} | ${f.work} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${cpuText(f.cpuMs)} | ${row.floor} | ${ratio.toFixed(2)} | ` +
        `${row.target === undefined ? "" : `>= ${row.target}`} | ${row.target === undefined ? "" : mark(ratio >= row.target)} | ${cpuRatio} | ` +
        `${(f.rps / loggedOf(s, row.floor).rps).toFixed(2)} |`,
    );
  }
  lines.push("");

  const p50Ratio = s.ordersLarge.p50 / s.ordersDemo.p50;
  lines.push(
    "## Orders page latency and data size",
    "",
    "| dataset | customer's orders | req/s | p50 ms | p99 ms |",
    "|---|---|---|---|---|",
    `| large | ${num(s.ordersLargeCount)} | ${num(s.ordersLarge.rps)} | ${ms(s.ordersLarge.p50)} | ${ms(s.ordersLarge.p99)} |`,
    `| demo (data/demo.json) | ${num(s.ordersDemoCount)} | ${num(s.ordersDemo.rps)} | ${ms(s.ordersDemo.p50)} | ${ms(s.ordersDemo.p99)} |`,
    "",
    `p50 large / demo: ${p50Ratio.toFixed(2)} (target <= ${P50_TARGET}: ${mark(p50Ratio <= P50_TARGET)})`,
    "",
  );

  const kib = s.bundle.gzipBytes / 1024;
  lines.push(
    "## Bundle",
    "",
    `\`wrangler deploy --dry-run --outdir\`: ${num(s.bundle.bytes / 1024, 1)} KiB, gzipped ${num(kib, 1)} KiB ` +
      `(target < ${BUNDLE_TARGET_KIB} KiB: ${mark(kib < BUNDLE_TARGET_KIB)}). wrangler: ${s.bundle.wranglerLine || "n/a"}`,
    "",
  );
  return lines.join("\n");
}
