// Server-Timing from the meter: d1, d1rows (a count), kv and the total (section 6), in hono/timing's format, written
// once: hono's timing() cost a second layer a request (docs/performance.md, "What every request pays").
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
