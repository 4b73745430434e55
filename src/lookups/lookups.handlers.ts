// Answers a lookup from the lookup cache: the cached body as is, with its ETag, so that the cached
// and the uncached answer are the same bytes and hono's etag() can answer If-None-Match with 304.
import type { Context } from "hono";
import type { AppEnv } from "../platform/env.ts";

/** Bump when the shape of a cached answer changes, so that no old shape is served after a deploy. */
const CACHE_FORMAT = "v1";

/**
 * `found` tells an answer that found something from one that found nothing (a pincode nobody
 * serves): the latter is kept only in the isolate, never in KV (see the lookup cache).
 */
export async function cachedJson<T>(c: Context<AppEnv>, key: string, load: () => Promise<T>, found: (answer: T) => boolean = () => true) {
  const { body, etag } = await c.get("services").cache.get(`${CACHE_FORMAT}:${key}`, async () => {
    const answer = await load();
    return { body: JSON.stringify(answer), negative: !found(answer) };
  });
  return c.body(body, 200, {
    "Content-Type": "application/json",
    ETag: etag,
    // Clients may keep it but must revalidate; shared caches must not keep an authenticated answer.
    "Cache-Control": "private, no-cache",
  });
}
