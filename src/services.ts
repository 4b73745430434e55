// Builds the per-request services once: metered bindings, the database, the caches, the key store.
import { drizzle } from "drizzle-orm/d1";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env.ts";
import { LookupCache, kvTtlSeconds } from "./lookups/lookups.cache.ts";
import type { Database } from "./platform/db/database.ts";
import { openReadSession } from "./platform/db/read-session.ts";
import { keyCacheTtlMs } from "./keys/keys.copy.ts";
import { KeyStore } from "./keys/keys.store.ts";
import { Meter, meterD1, meterKV } from "./platform/lib/meter.ts";

/** A client sends back the bookmark of its last write to read what it wrote. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

export const services = createMiddleware<AppEnv>(async (c, next) => {
  const meter = new Meter();
  c.set("meter", meter);

  const sessions: D1DatabaseSession[] = [];
  const open = (session: D1DatabaseSession) => {
    sessions.push(session);
    // drizzle's D1 driver needs only prepare() and batch(), which a session has.
    return drizzle(meterD1(session, meter) as unknown as D1Database);
  };
  const bookmark = c.req.header(BOOKMARK_HEADER);
  let db: Database | undefined;
  let primaryDb: Database | undefined;
  let cache: LookupCache | undefined;
  let keys: KeyStore | undefined;
  const executionCtx = c.executionCtx;

  // Each made at its first use: a request uses some of them only (docs/performance.md, "What every request pays").
  c.set("services", {
    get db() {
      return (db ??= open(openReadSession(c.env.DB, bookmark)));
    },
    get primaryDb() {
      return (primaryDb ??= open(c.env.DB.withSession("first-primary")));
    },
    get cache() {
      return (cache ??= new LookupCache(
        meterKV(c.env.LOOKUP_CACHE, meter, "lookup cache"),
        kvTtlSeconds(c.env.LOOKUP_CACHE_TTL),
        (p) => executionCtx.waitUntil(p),
      ));
    },
    // Key changes go to the primary; authentication reads only KV, so constructing the store opens nothing.
    get keys() {
      return (keys ??= new KeyStore(
        meterKV(c.env.KEYS, meter, "key store"),
        meterD1(c.env.DB, meter),
        () => new Date(),
        keyCacheTtlMs(c.env.KEY_CACHE_SECONDS),
      ));
    },
  });

  await next();

  // The last session opened is the primary's when there was a write.
  const latest = sessions.map((s) => s.getBookmark()).findLast((b) => b);
  // On the answer itself: c.header() after the handler would copy the whole Response first.
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});
