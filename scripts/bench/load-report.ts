// The figures of `npm run bench -- load`, printed as plain lines, and the verdict.
import { type CannonResult, num } from "./cannon.ts";
import type { Tally } from "./load-mix.ts";
import type { CreateCheck } from "./load-catalog.ts";

export interface Verdict {
  ok: boolean;
  lines: string[];
}

export function report(result: CannonResult, tally: Tally, check: CreateCheck): Verdict {
  const lines: string[] = [];
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([s, v]) => [Number(s), v.count ?? 0] as const)
    .sort((a, b) => a[0] - b[0]);
  const nonOk = statuses.filter(([s]) => s < 200 || s >= 300);
  const fiveXx = statuses.filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);

  lines.push(
    `requests:    ${result.requests.total} in ${result.duration} s = ${num(result.requests.total / result.duration, 1)} req/s (${num(result.throughput.average / 1024, 1)} KiB/s)`,
  );
  lines.push(
    `latency ms:  p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, max ${result.latency.max}, mean ${num(result.latency.mean, 1)}`,
  );
  lines.push(`by status:   ${statuses.map(([s, c]) => `${s}: ${c}`).join(", ") || "none"}`);
  lines.push(`errors:      ${result.errors} (connection errors), ${result.timeouts} timeouts`);
  lines.push(
    `non-2xx:     ${result.non2xx}${nonOk.length ? ` (${nonOk.map(([s, c]) => `${s}: ${c}`).join(", ")})` : ""}`,
  );
  lines.push(`5xx:         ${fiveXx}`);
  lines.push("by endpoint:");
  for (const [name, byStatus] of [...tally.byEndpoint].sort((a, b) => a[0].localeCompare(b[0]))) {
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    const parts = [...byStatus].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${s}: ${c}`);
    lines.push(`  ${name.padEnd(36)} ${String(total).padStart(7)}  ${parts.join(", ")}`);
  }
  lines.push(
    `creates:     ${tally.created} answered 201 (${tally.replayed} of them replays), ${check.created} distinct customers`,
  );
  lines.push(
    `lost creates: ${check.missing.length} (${check.created - check.missing.length} of ${check.created} created customers listed by GET /customers; ` +
      `listing ${check.listedBefore} -> ${check.listedAfter}, of which ${check.cutOff.written} by the ${check.cutOff.sent} creates still in flight at the stop)`,
  );
  if (check.missing.length)
    lines.push(`  MISSING: ${check.missing.slice(0, 20).join(", ")}${check.missing.length > 20 ? ", ..." : ""}`);
  for (const row of check.unexplained.slice(0, 10)) lines.push(`  UNEXPLAINED: ${row}`);
  for (const anomaly of tally.createAnomalies.slice(0, 10)) lines.push(`  ANOMALY: ${anomaly}`);

  const failures = [
    fiveXx > 0 && `${fiveXx} answers were 5xx`,
    result.errors + result.timeouts > 0 && `${result.errors + result.timeouts} requests got no answer`,
    check.missing.length > 0 && `${check.missing.length} created customers are not listed`,
    check.unexplained.length > 0 && `${check.unexplained.length} customers were written that no 201 explains`,
    tally.createAnomalies.length > 0 && `${tally.createAnomalies.length} create anomalies`,
  ].filter((f): f is string => typeof f === "string");
  lines.push(
    failures.length
      ? `RESULT: FAIL: ${failures.join("; ")}`
      : "RESULT: PASS: no 5xx, no request without an answer, no lost create",
  );
  return { ok: failures.length === 0, lines };
}
