// Server-Timing from the metered bindings: d1 (round trips), d1rows (rows D1 read), kv entries and the
// total (docs/specification.md section 6). d1rows has no duration: it is a count. One middleware that
// writes the header once from the meter, in the format of hono/timing's setMetric: hono's timing()
// kept a timer map and a context variable a request for metrics that all come from the meter, and
// took a second layer around every request (docs/performance.md, "What every request pays").
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { PlatformEnv } from "../env.ts";

const metric = (name: string, ms: number | null, description: string) =>
  `${name}${ms === null ? "" : `;dur=${ms.toFixed(1)}`};desc="${description}"`;

function serverTimingHeader(c: Context<PlatformEnv>, totalMs: number): string {
  const meter = c.get("meter");
  return [
    metric("d1", meter?.d1Ms ?? 0, `${meter?.d1RoundTrips ?? 0} round trips`),
    metric("d1rows", null, `${meter?.d1RowsRead ?? 0} rows read`),
    metric("kv", meter?.kvMs ?? 0, `${meter?.kvReads ?? 0} reads`),
    metric("total", totalMs, "total"),
  ].join(",");
}

export const serverTiming = createMiddleware<PlatformEnv>(async (c, next) => {
  const start = performance.now();
  await next();
  if (c.env.SERVER_TIMING === "off") return;
  c.res.headers.append("Server-Timing", serverTimingHeader(c, performance.now() - start));
});
