// Per-key rate limit (docs/specification.md sections 2 and 6), after authentication: the bucket is the key's lineage,
// so rotation, rolls and graces never multiply a budget, and a caller without a valid key reaches none.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { errors } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";

/** The binding's period: counters reset each minute, so waiting this long always helps. */
export const PERIOD_SECONDS = 60;

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.RATE_LIMITER;
  const key = c.get("apiKey");
  if (limiter && key && c.env.RATE_LIMIT_PER_MINUTE !== "0") {
    let success = true;
    try {
      ({ success } = await limiter.limit({ key: key.lineage_id }));
    } catch (err) {
      // The limiter protects capacity, not access: a limiter fault lets an authenticated request through (logged).
      log({ level: "warn", request_id: c.get("requestId"), event: "rate_limiter_unavailable", error: errorName(err) });
    }
    if (!success) throw errors.rateLimited(PERIOD_SECONDS);
  }
  await next();
});
