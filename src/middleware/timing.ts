// Server-Timing from the metered bindings: d1 and kv entries (SPEC.md section 6).
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { setMetric, timing } from "hono/timing";
import type { AppEnv } from "../env.ts";

export const serverTiming = [
  timing({ enabled: (c: Context<AppEnv>) => c.env.SERVER_TIMING !== "off", totalDescription: "total" }),
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const meter = c.get("meter");
    setMetric(c, "d1", meter?.d1Ms ?? 0, `${meter?.d1RoundTrips ?? 0} round trips`);
    setMetric(c, "kv", meter?.kvMs ?? 0, `${meter?.kvReads ?? 0} reads`);
  }),
] as const;
