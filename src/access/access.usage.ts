// Counts every authenticated request for its key's usage, whatever its answer (403 and 429 too). The D1 write, when
// due, runs after the response (waitUntil) on the unmetered binding.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { isLateUse } from "../keys/keys.rotation.ts";
import { flushUsage, usageFlushSeconds, usageRecorder } from "../keys/keys.usage.ts";

export const usage = createMiddleware<AppEnv>(async (c, next) => {
  const interval = usageFlushSeconds(c.env.USAGE_FLUSH_SECONDS);
  const key = c.get("apiKey");
  if (interval === null || !key) return next();
  try {
    await next();
  } finally {
    const now = Date.now();
    usageRecorder.record(key.id, now);
    if (isLateUse(key, now)) usageRecorder.recordLateUse(key.id);
    const due = usageRecorder.takeIfDue(now, interval);
    if (due) c.executionCtx.waitUntil(flushUsage(c.env.DB, due));
  }
});
