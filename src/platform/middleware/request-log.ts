// One log line a request and its id on every response; no header or query logged, key-shaped path parts masked.
import { createMiddleware } from "hono/factory";
import type { PlatformEnv } from "../env.ts";
import { log } from "../lib/log.ts";

const MAX_LOGGED_PATH = 512;
const KEY_LIKE = /sk_(test|live)_[A-Za-z0-9]+/g;

export function loggablePath(path: string): string {
  const masked = path.replace(KEY_LIKE, "sk_$1_[redacted]");
  return masked.length > MAX_LOGGED_PATH ? `${masked.slice(0, MAX_LOGGED_PATH)}…` : masked;
}

export const requestLog = createMiddleware<PlatformEnv>(async (c, next) => {
  const start = performance.now();
  await next();
  const requestId = c.get("requestId");
  if (!c.res.headers.has("X-Request-Id")) c.res.headers.set("X-Request-Id", requestId);
  const meter = c.get("meter");
  const status = c.res.status;
  // A 5xx is the service's own failure: an error line. A 4xx is the caller's mistake: info.
  log(
    {
      request_id: requestId,
      method: c.req.method,
      path: loggablePath(c.req.path),
      status,
      duration_ms: Math.round((performance.now() - start) * 10) / 10,
      key_id: c.get("apiKey")?.id ?? null,
      d1_round_trips: meter?.d1RoundTrips ?? 0,
      d1_rows_read: meter?.d1RowsRead ?? 0,
      kv_reads: meter?.kvReads ?? 0,
      ...(meter?.d1ServedByRegion !== undefined ? { served_by_region: meter.d1ServedByRegion } : {}),
      ...(meter?.d1ServedByPrimary !== undefined ? { served_by_primary: meter.d1ServedByPrimary } : {}),
    },
    status >= 500 ? "error" : "info",
  );
});
