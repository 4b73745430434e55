// Two-tier cache for the lookup answers (areas, pincodes): a short in-isolate tier in front of KV.
// Entries hold the serialized body, so a cached answer is byte-for-byte the uncached one.
import { DependencyError, findCause } from "../lib/errors.ts";
import { sha256Hex } from "../lib/crypto.ts";

export interface CachedBody {
  body: string;
  etag: string;
}

interface IsolateEntry extends CachedBody {
  expiresAt: number;
}

/** At most 10 s (SPEC.md section 6): how stale an isolate may serve after an import purges KV. */
export const ISOLATE_TTL_MS = 5_000;
export const MAX_KV_TTL_SECONDS = 3_600;
const MIN_KV_TTL_SECONDS = 60; // KV's own minimum expirationTtl
/** KV's edge cache time for reads (its minimum); purges reach readers within this plus propagation. */
const KV_READ_CACHE_TTL_SECONDS = 30;

// Lives as long as the isolate: shared by the requests it serves.
const isolateTier = new Map<string, IsolateEntry>();

/** Empties this isolate's tier (tests, after an import). */
export function clearIsolateTier(): void {
  isolateTier.clear();
}

export class LookupCache {
  constructor(
    private readonly kv: KVNamespace,
    private readonly kvTtlSeconds: number,
    private readonly waitUntil: (p: Promise<unknown>) => void,
  ) {}

  /** The cached answer for key, or load()'s, which then fills both tiers without delaying the caller. */
  async get(key: string, load: () => Promise<string>): Promise<CachedBody> {
    const now = Date.now();
    const local = isolateTier.get(key);
    if (local && local.expiresAt > now) return local;

    const fromKv = await this.readKv(key);
    if (fromKv) {
      this.remember(key, fromKv, now);
      return fromKv;
    }

    const body = await load();
    const entry = { body, etag: await etagOf(body) };
    this.remember(key, entry, now);
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

  private remember(key: string, entry: CachedBody, now: number) {
    isolateTier.set(key, { ...entry, expiresAt: now + ISOLATE_TTL_MS });
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
