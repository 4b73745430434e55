// Server-Timing from the metered bindings: d1 (round trips), d1rows (rows D1 read) and kv entries
// (docs/specification.md section 6). d1rows has no duration: it is a count.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { setMetric, timing } from "hono/timing";
import type { PlatformEnv } from "../env.ts";

export const serverTiming = [
  timing({ enabled: (c: Context<PlatformEnv>) => c.env.SERVER_TIMING !== "off", totalDescription: "total" }),
  createMiddleware<PlatformEnv>(async (c, next) => {
    await next();
    const meter = c.get("meter");
    setMetric(c, "d1", meter?.d1Ms ?? 0, `${meter?.d1RoundTrips ?? 0} round trips`);
    setMetric(c, "d1rows", `${meter?.d1RowsRead ?? 0} rows read`);
    setMetric(c, "kv", meter?.kvMs ?? 0, `${meter?.kvReads ?? 0} reads`);
  }),
] as const;
