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
  floors: { constant: Figures[]; oneQuery: Figures[] };
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
const mean = (list: Figures[]) => list.reduce((s, f) => s + f.rps, 0) / list.length;

export function floorRps(summary: Summary, floor: Row["floor"]): number {
  return mean(floor === "constant" ? summary.floors.constant : summary.floors.oneQuery);
}

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

  lines.push("## Floors", "", "| floor | req/s (each run) | mean req/s | p50 ms | p99 ms |", "|---|---|---|---|---|");
  for (const [name, runs] of [["constant JSON body", s.floors.constant], ["one D1 `select 1`", s.floors.oneQuery]] as const) {
    const last = runs[runs.length - 1]!;
    lines.push(`| ${name} | ${runs.map((r) => num(r.rps)).join(", ")} | ${num(mean(runs))} | ${ms(last.p50)} | ${ms(last.p99)} |`);
  }
  lines.push("");

  lines.push(
    "## Endpoints",
    "",
    "| endpoint | work per request | req/s | p50 ms | p99 ms | floor | ratio | target | met |",
    "|---|---|---|---|---|---|---|---|---|",
  );
  for (const row of s.rows) {
    const f = row.figures;
    const ratio = f.rps / floorRps(s, row.floor);
    const failures = f.failures ? ` (**${num(f.failures)} failed**)` : "";
    lines.push(
      `| ${f.label}${failures} | ${f.work} | ${num(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${row.floor} | ${ratio.toFixed(2)} | ` +
        `${row.target === undefined ? "" : `>= ${row.target}`} | ${row.target === undefined ? "" : mark(ratio >= row.target)} |`,
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
