// Counts every request that passed authentication (whatever its answer: 200, 304, 403, 422, 429...)
// for its key's usage (src/keys/keys.usage.ts). Runs right after `auth` on every API route. The D1 write,
// when one is due, happens after the response through waitUntil, on the unmetered binding.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { flushUsage, usageFlushSeconds, usageRecorder } from "../../keys/keys.usage.ts";

export const usage = createMiddleware<AppEnv>(async (c, next) => {
  const interval = usageFlushSeconds(c.env.USAGE_FLUSH_SECONDS);
  const key = c.get("apiKey");
  if (interval === null || !key) return next();
  try {
    await next();
  } finally {
    const now = Date.now();
    usageRecorder.record(key.id, now);
    const due = usageRecorder.takeIfDue(now, interval);
    if (due) c.executionCtx.waitUntil(flushUsage(c.env.DB, due));
  }
});
