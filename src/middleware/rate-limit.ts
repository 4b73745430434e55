// Per-key rate limit with the Workers Rate Limiting binding ([[ratelimits]] in wrangler.toml).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { errors } from "../lib/errors.ts";

/** The binding's period: its counters reset each minute. */
const PERIOD_SECONDS = 60;

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.RATE_LIMITER;
  const key = c.get("apiKey");
  if (limiter && key && c.env.RATE_LIMIT_PER_MINUTE !== "0") {
    const { success } = await limiter.limit({ key: key.id });
    if (!success) throw errors.rateLimited(PERIOD_SECONDS);
  }
  await next();
});
