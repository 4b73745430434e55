// What this isolate recently read about keys, by secret hash: a found record or "no such key".
// Saves the KV read on most requests; its times to live are part of the revocation bound.
//
// Found keys and "no such key" answers are kept apart, each bounded: a caller spraying well-formed
// random keys fills only the second, so it can never push a real key out and make every request
// of that key pay a KV read again. Found keys are dropped least recently used first, so the keys in
// steady use stay when there are more keys than room.
import { BoundedLru } from "../lib/lru.ts";
import type { KeyRecord } from "./record.ts";

/**
 * How long an isolate trusts a record it read, at most and by default (part of the revocation bound,
 * docs/specification.md section 2); KEY_CACHE_SECONDS may shorten it (keyCacheTtlMs).
 */
export const ISOLATE_KEY_TTL_MS = 10_000;
/** Found keys kept at most; the least recently used go first. */
export const ISOLATE_KEY_CACHE_SIZE = 2_000;
/**
 * How long "no such key" is trusted: short, so that a key made in another isolate (or by the
 * command line) works here within this, well inside that bound; long enough that one
 * unknown key sent in a loop costs one KV read per isolate in this time.
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;
/** "No such key" answers kept at most. */
export const UNKNOWN_KEY_CACHE_SIZE = 1_000;

/**
 * KEY_CACHE_SECONDS: how long this deployment's isolates trust a key record they read, in whole
 * seconds from 0 (every request reads KV) to 10; unset or anything else, 10. Never longer than
 * ISOLATE_KEY_TTL_MS, so the revocation bound holds whatever is configured; shorter lets the
 * tests see a revocation reach a running server without waiting 10 s.
 */
export function keyCacheTtlMs(value: unknown): number {
  if (typeof value === "string" && /^[0-9]{1,2}$/.test(value) && Number(value) * 1000 <= ISOLATE_KEY_TTL_MS) return Number(value) * 1000;
  return ISOLATE_KEY_TTL_MS;
}

// Live as long as the isolate: shared by the requests it serves.
const known = new BoundedLru<KeyRecord>(ISOLATE_KEY_CACHE_SIZE, ISOLATE_KEY_TTL_MS);
const unknown = new BoundedLru<true>(UNKNOWN_KEY_CACHE_SIZE, UNKNOWN_KEY_TTL_MS);

/** The cached answer for a hash: a record, null (known unknown), or undefined (not cached). */
export function cachedKey(hash: string, nowMs: number): KeyRecord | null | undefined {
  const record = known.get(hash, nowMs);
  if (record !== undefined) return record;
  return unknown.get(hash, nowMs) ? null : undefined;
}

/** Remembers the answer for ttlMs (a found key; "no such key" for at most UNKNOWN_KEY_TTL_MS). */
export function rememberKey(hash: string, record: KeyRecord | null, nowMs: number, ttlMs = ISOLATE_KEY_TTL_MS): void {
  // A hash is in one of the two at most: the newest answer replaces the other.
  if (record) {
    unknown.delete(hash);
    known.set(hash, record, nowMs, ttlMs);
  } else {
    known.delete(hash);
    unknown.set(hash, true, nowMs, Math.min(ttlMs, UNKNOWN_KEY_TTL_MS));
  }
}

export function forgetKey(hash: string): void {
  known.delete(hash);
  unknown.delete(hash);
}

/** Forgets what this isolate cached about keys (tests; a new isolate starts empty). */
export function clearIsolateKeyCache(): void {
  known.clear();
  unknown.clear();
}
