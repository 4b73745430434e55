// Two-tier cache for the lookup answers (areas, pincodes): a short in-isolate tier in front of KV.
// Entries hold the serialized body, so a cached answer is byte-for-byte the uncached one.
//
// Both tiers are bounded. Any of 900,000 pincodes is a valid request, and most of them nobody
// serves: an answer that found nothing ("negative") is kept only in a bounded part of the isolate
// tier of its own, never written to KV, so a caller walking through pincodes can neither grow the
// isolate's memory, nor write KV entries, nor push the answers in steady use out of the isolate.
import { DependencyError, findCause } from "../platform/errors.ts";
import { sha256Hex } from "../platform/lib/crypto.ts";
import { BoundedLru } from "../platform/lib/lru.ts";

export interface CachedBody {
  body: string;
  etag: string;
}

/** What a loader found: the serialized answer, and whether it is one that found nothing. */
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
/** Answers that found something, kept per isolate at most (least recently used go first). */
export const ISOLATE_TIER_SIZE = 1_000;
/** Answers that found nothing, kept per isolate at most, apart from the others. */
export const ISOLATE_NEGATIVE_TIER_SIZE = 1_000;

// Live as long as the isolate: shared by the requests it serves.
const isolateTier = new BoundedLru<CachedBody>(ISOLATE_TIER_SIZE, ISOLATE_TTL_MS);
const negativeTier = new BoundedLru<CachedBody>(ISOLATE_NEGATIVE_TIER_SIZE, ISOLATE_TTL_MS);

/** Empties this isolate's tier (tests, after an import). */
export function clearIsolateTier(): void {
  isolateTier.clear();
  negativeTier.clear();
}

/** How many answers this isolate holds, of both kinds (tests: the tier stays bounded). */
export function isolateTierSize(): number {
  return isolateTier.size + negativeTier.size;
}

export class LookupCache {
  constructor(
    private readonly kv: KVNamespace,
    private readonly kvTtlSeconds: number,
    private readonly waitUntil: (p: Promise<unknown>) => void,
  ) {}

  /**
   * The cached answer for key, or load()'s, which then fills both tiers without delaying the
   * caller; a negative answer fills only this isolate's tier for negative answers.
   */
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
