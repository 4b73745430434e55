// Lookup answers cached in the isolate, then KV; empty answers only in an isolate tier (900,000 pincodes write none).
import { DependencyError, findCause } from "../platform/errors.ts";
import { sha256Hex } from "../platform/lib/crypto.ts";
import { BoundedLru } from "../platform/lib/lru.ts";

export interface CachedBody {
  body: string;
  etag: string;
}

export interface Loaded {
  body: string;
  negative: boolean;
}

/** At most 10 s (docs/specification.md section 6): how stale an isolate may serve after an import purges KV. */
export const ISOLATE_TTL_MS = 5_000;
export const MAX_KV_TTL_SECONDS = 3_600;
const MIN_KV_TTL_SECONDS = 60; // KV's own minimum expirationTtl
/** KV's edge cache time for reads (its minimum); purges reach readers within this plus propagation. */
const KV_READ_CACHE_TTL_SECONDS = 30;
export const ISOLATE_TIER_SIZE = 1_000;
export const ISOLATE_NEGATIVE_TIER_SIZE = 1_000;

// Live as long as the isolate: shared by the requests it serves.
const isolateTier = new BoundedLru<CachedBody>(ISOLATE_TIER_SIZE, ISOLATE_TTL_MS);
const negativeTier = new BoundedLru<CachedBody>(ISOLATE_NEGATIVE_TIER_SIZE, ISOLATE_TTL_MS);

export function clearIsolateTier(): void {
  isolateTier.clear();
  negativeTier.clear();
}

/** For tests: the tier stays bounded. */
export function isolateTierSize(): number {
  return isolateTier.size + negativeTier.size;
}

export class LookupCache {
  constructor(
    private readonly kv: KVNamespace,
    private readonly kvTtlSeconds: number,
    private readonly waitUntil: (p: Promise<unknown>) => void,
  ) {}

  async get(key: string, load: () => Promise<Loaded>): Promise<CachedBody> {
    const now = Date.now();
    const local = isolateTier.get(key, now) ?? negativeTier.get(key, now);
    if (local) return local;

    const fromKv = await this.readKv(key);
    if (fromKv) {
      isolateTier.set(key, fromKv, now);
      return fromKv;
    }

    const { body, negative } = await load();
    const entry = { body, etag: await etagOf(body) };
    if (negative) {
      negativeTier.set(key, entry, now);
      return entry;
    }
    isolateTier.set(key, entry, now);
    this.waitUntil(
      this.kv
        .put(key, body, { expirationTtl: this.kvTtlSeconds, metadata: { etag: entry.etag } })
        .catch(() => undefined), // a cache that cannot be written is only a slower cache
    );
    return entry;
  }

  private async readKv(key: string): Promise<CachedBody | null> {
    try {
      const { value, metadata } = await this.kv.getWithMetadata<{ etag?: string }>(key, {
        type: "text",
        cacheTtl: KV_READ_CACHE_TTL_SECONDS,
      });
      if (value === null) return null;
      return { body: value, etag: metadata?.etag ?? (await etagOf(value)) };
    } catch (err) {
      // KV down: answer from D1 rather than fail the lookup.
      if (findCause(err, (e): e is DependencyError => e instanceof DependencyError)) return null;
      throw err;
    }
  }
}

export function kvTtlSeconds(configured: string | undefined): number {
  const n = Number(configured);
  if (!Number.isFinite(n) || n <= 0) return MAX_KV_TTL_SECONDS;
  return Math.min(MAX_KV_TTL_SECONDS, Math.max(MIN_KV_TTL_SECONDS, Math.floor(n)));
}

async function etagOf(body: string): Promise<string> {
  return `"${await sha256Hex(body, 16)}"`;
}
