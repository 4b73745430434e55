// autocannon, the load generator of `npm run bench`, and the benchmark's measurement of one endpoint with it.
import { createRequire } from "node:module";
import type autocannon from "autocannon";

export type CannonRequest = autocannon.Request;
export type CannonResult = autocannon.Result;
export const cannon = createRequire(import.meta.url)("autocannon") as (
  options: autocannon.Options,
) => Promise<CannonResult>;

/** One endpoint to measure: a GET of url, or each request given by `request`. */
export interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** For requests other than a GET of url: each call gives the next request (method, body, headers). */
  request?: () => RequestParts;
  /** The serving processes' CPU seconds so far (null when unknown). */
  cpuSeconds: () => number | null;
}

export interface RequestParts {
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
}

export interface Figures {
  label: string;
  url: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Answers other than 2xx, errors and timeouts: any makes the figures suspect. */
  failures: number;
  /** The serving processes' CPU time per request, in ms (null when unknown). */
  cpuMs: number | null;
  /** The probe's status and Server-Timing d1, d1rows and kv entries ("" for the floors, which send none). */
  status: number;
  work: string;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/**
 * A warm-up (so that isolate caches, JIT and SQLite's page cache are what a busy service has), one
 * probe request whose Server-Timing says what work each request does, then autocannon at a fixed
 * number of connections for a fixed time.
 */
export async function measure(target: Target, options: LoadOptions): Promise<Figures> {
  const next = target.request;
  // A fresh request each time (a create needs a new mobile number), else autocannon's fixed GET.
  const requests = next
    ? [
        {
          setupRequest: (req: CannonRequest) => {
            const parts = next();
            return { ...req, ...parts, headers: { ...target.headers, ...parts.headers } };
          },
        },
      ]
    : undefined;
  const load = (duration: number) =>
    cannon({ url: target.url, headers: target.headers, connections: options.connections, duration, requests });
  await load(options.warmupSeconds);
  const parts = next?.();
  const probe = await fetch(target.url, {
    method: parts?.method,
    body: parts?.body,
    headers: { ...target.headers, ...parts?.headers },
  });
  await probe.arrayBuffer();
  const cpuBefore = target.cpuSeconds();
  const result = await load(options.seconds);
  const cpuAfter = target.cpuSeconds();
  const total = result.requests.total;
  return {
    cpuMs: cpuBefore === null || cpuAfter === null || total === 0 ? null : ((cpuAfter - cpuBefore) * 1000) / total,
    label: target.label,
    url: target.url,
    rps: total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
    failures: result.non2xx + result.errors + result.timeouts,
    status: probe.status,
    work: workOf(probe.headers.get("Server-Timing")),
  };
}

export const mean = (list: number[]) => list.reduce((sum, n) => sum + n, 0) / list.length;
export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
/** A figure for a report: thousands separated, `digits` decimals. */
export const num = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** A Markdown table's header row and the row under it. */
export const tableHead = (...columns: string[]) => [`| ${columns.join(" | ")} |`, `|${"---|".repeat(columns.length)}`];

/** The D1 rows that an answer read, from its Server-Timing d1rows entry; undefined without one. */
export function rowsRead(serverTiming: string | null): number | undefined {
  const rows = /d1rows;desc="(\d+) rows read"/.exec(serverTiming ?? "")?.[1];
  return rows === undefined ? undefined : Number(rows);
}

/** "1 D1 (57 rows) + 0 KV" from a Server-Timing header. */
function workOf(header: string | null): string {
  if (!header) return "";
  const d1 = /d1;dur=[\d.]+;desc="(\d+) round trips"/.exec(header)?.[1] ?? "?";
  const rows = rowsRead(header) ?? "?";
  const kv = /kv;dur=[\d.]+;desc="(\d+) reads"/.exec(header)?.[1] ?? "?";
  return `${d1} D1 (${rows} rows) + ${kv} KV`;
}
