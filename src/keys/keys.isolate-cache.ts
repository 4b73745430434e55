// What this isolate recently read about keys, by secret hash: a found record or "no such key".
// Saves the KV read on most requests; its times to live are part of the revocation bound.
//
// Found keys and "no such key" answers are kept apart, each bounded: a caller spraying well-formed
// random keys fills only the second, so it can never push a real key out and make every request
// of that key pay a KV read again. Found keys are dropped least recently used first, so the keys in
// steady use stay when there are more keys than room.
import { BoundedLru } from "../platform/lib/lru.ts";
import type { KeyRecord } from "./keys.record.ts";

/** How long an isolate trusts a record it read (part of the revocation bound, docs/specification.md section 2). */
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

// Live as long as the isolate: shared by the requests it serves.
const known = new BoundedLru<KeyRecord>(ISOLATE_KEY_CACHE_SIZE, ISOLATE_KEY_TTL_MS);
const unknown = new BoundedLru<true>(UNKNOWN_KEY_CACHE_SIZE, UNKNOWN_KEY_TTL_MS);

/** The cached answer for a hash: a record, null (known unknown), or undefined (not cached). */
export function cachedKey(hash: string, nowMs: number): KeyRecord | null | undefined {
  const record = known.get(hash, nowMs);
  if (record !== undefined) return record;
  return unknown.get(hash, nowMs) ? null : undefined;
}

export function rememberKey(hash: string, record: KeyRecord | null, nowMs: number): void {
  // A hash is in one of the two at most: the newest answer replaces the other.
  if (record) {
    unknown.delete(hash);
    known.set(hash, record, nowMs);
  } else {
    known.delete(hash);
    unknown.set(hash, true, nowMs);
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
