// CORS for CORS_ORIGINS; requests without Origin skip cors(), whose early headers cost a copied Response each.
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { PlatformEnv } from "../env.ts";

const crossOrigin = cors({
  origin: (origin, c) =>
    (c.env.CORS_ORIGINS ?? "")
      .split(",")
      .map((o: string) => o.trim())
      .includes(origin)
      ? origin
      : null,
  // ETag and Key-Rotation: a web app's sync and key rotation read them (docs/specification.md section 8).
  exposeHeaders: [
    "X-Request-Id",
    "Server-Timing",
    "ETag",
    "Key-Rotation",
    "Retry-After",
    "Idempotent-Replayed",
    "X-D1-Bookmark",
  ],
});

export const corsForOrigins: MiddlewareHandler<PlatformEnv> = async (c, next) => {
  if (c.req.header("Origin") !== undefined) return crossOrigin(c, next);
  await next();
  // An answer to a request without Origin must not be reused for one with it by a cache.
  c.res.headers.append("Vary", "Origin");
};
