// One JSON log line per request, and the request id on every response (even a bare 304).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { log } from "../lib/log.ts";

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const start = performance.now();
  await next();
  const requestId = c.get("requestId");
  if (!c.res.headers.has("X-Request-Id")) c.res.headers.set("X-Request-Id", requestId);
  const meter = c.get("meter");
  log({
    request_id: requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    duration_ms: Math.round((performance.now() - start) * 10) / 10,
    key_id: c.get("apiKey")?.id ?? null,
    d1_round_trips: meter?.d1RoundTrips ?? 0,
    kv_reads: meter?.kvReads ?? 0,
  });
});
