// What this isolate recently read about keys, by secret hash: a found record or "no such key".
// Saves the KV read on most requests; its time to live is part of the revocation bound. Bounded, so
// that a caller spraying well-formed random keys cannot grow it without limit.
import type { KeyRecord } from "./store.ts";

/** How long an isolate trusts what it read (part of the revocation bound stated in the README). */
export const ISOLATE_KEY_TTL_MS = 10_000;
/** Entries kept at most; the oldest go first. */
export const ISOLATE_KEY_CACHE_SIZE = 2_000;

interface Entry {
  record: KeyRecord | null;
  until: number;
}

// Lives as long as the isolate: shared by the requests it serves.
const entries = new Map<string, Entry>();

/** The cached answer for a hash: a record, null (known unknown), or undefined (not cached). */
export function cachedKey(hash: string, nowMs: number): KeyRecord | null | undefined {
  const entry = entries.get(hash);
  if (!entry) return undefined;
  if (entry.until > nowMs) return entry.record;
  entries.delete(hash);
  return undefined;
}

export function rememberKey(hash: string, record: KeyRecord | null, nowMs: number): void {
  entries.delete(hash); // re-inserted last: Map order is then age order
  if (entries.size >= ISOLATE_KEY_CACHE_SIZE) {
    const oldest = entries.keys().next();
    if (!oldest.done) entries.delete(oldest.value);
  }
  entries.set(hash, { record, until: nowMs + ISOLATE_KEY_TTL_MS });
}

export function forgetKey(hash: string): void {
  entries.delete(hash);
}

/** Forgets what this isolate cached about keys (tests; a new isolate starts empty). */
export function clearIsolateKeyCache(): void {
  entries.clear();
}

export function isolateKeyCacheSize(): number {
  return entries.size;
}
