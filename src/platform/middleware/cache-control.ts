// No shared cache may keep an answer given to a credential (the next caller would get it); lookups set their own.
import { createMiddleware } from "hono/factory";
import type { PlatformEnv } from "../env.ts";

/** A value that already forbids shared caching. */
const KEEPS_PRIVATE = /(?:^|,)\s*(?:private|no-store)\s*(?:,|$)/i;

export const cacheControl = createMiddleware<PlatformEnv>(async (c, next) => {
  await next();
  const credentialed =
    c.get("apiKey") !== undefined ||
    c.req.header("Authorization") !== undefined ||
    c.req.header("Cookie") !== undefined;
  if (!credentialed) return;
  const own = c.res.headers.get("Cache-Control");
  if (own && KEEPS_PRIVATE.test(own)) return;
  c.res.headers.set("Cache-Control", "no-store");
});
