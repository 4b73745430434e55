// CORS for browsers on the origins that CORS_ORIGINS lists. hono's cors() sets its headers on c.res
// before the handler runs, which makes hono build a placeholder Response and then copy it into the
// real one: work on every request. Only a request with an Origin header can be a cross-origin one,
// so the others skip it and get just the `Vary: Origin` that cors() would have added.
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../env.ts";

const crossOrigin = cors({
  origin: (origin, c) => ((c.env.CORS_ORIGINS ?? "").split(",").map((o: string) => o.trim()).includes(origin) ? origin : null),
  exposeHeaders: ["X-Request-Id", "Server-Timing", "ETag", "Retry-After", "Idempotent-Replayed", "X-D1-Bookmark"],
});

export const corsForOrigins: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header("Origin") !== undefined) return crossOrigin(c, next);
  await next();
  // An answer to a request without Origin must not be reused for one with it by a cache.
  c.res.headers.append("Vary", "Origin");
};
