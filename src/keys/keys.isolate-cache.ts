// What this isolate recently read about keys, by secret hash: saves the KV read on most requests. Its
// times to live are part of the revocation bound (docs/specification.md section 2).
import { BoundedLru } from "../platform/lib/lru.ts";
import type { KeyRecord } from "./keys.record.ts";
import { clearFirstUseReports } from "./keys.rotation.ts";
import { clearIsolateDueSet } from "./keys.rotation.due.ts";

export const ISOLATE_KEY_TTL_MS = 10_000;
export const ISOLATE_KEY_CACHE_SIZE = 2_000;
/** Short, so a key made elsewhere soon works here; long enough that an unknown key in a loop costs few KV reads. */
export const UNKNOWN_KEY_TTL_MS = 5_000;
export const UNKNOWN_KEY_CACHE_SIZE = 1_000;

// Kept apart so that random well-formed keys fill only `unknown` and never push a real key out.
const known = new BoundedLru<KeyRecord>(ISOLATE_KEY_CACHE_SIZE, ISOLATE_KEY_TTL_MS);
const unknown = new BoundedLru<true>(UNKNOWN_KEY_CACHE_SIZE, UNKNOWN_KEY_TTL_MS);

/** null: known to be no key; undefined: not cached. */
export function cachedKey(hash: string, nowMs: number): KeyRecord | null | undefined {
  const record = known.get(hash, nowMs);
  if (record !== undefined) return record;
  return unknown.get(hash, nowMs) ? null : undefined;
}

// KEY_CACHE_SECONDS (0 to 10, else 10) may shorten the trust, never lengthen it: the revocation bound
// holds whatever is configured, and the e2e tests see a revocation reach a server without waiting.
export function keyCacheTtlMs(value: unknown): number {
  if (typeof value === "string" && /^[0-9]{1,2}$/.test(value) && Number(value) * 1000 <= ISOLATE_KEY_TTL_MS) {
    return Number(value) * 1000;
  }
  return ISOLATE_KEY_TTL_MS;
}

/** A "no such key" answer is kept for at most UNKNOWN_KEY_TTL_MS whatever ttlMs says. */
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

/** For tests: as a new isolate starts. */
export function clearIsolateKeyCache(): void {
  known.clear();
  unknown.clear();
  clearIsolateDueSet();
  clearFirstUseReports();
}
