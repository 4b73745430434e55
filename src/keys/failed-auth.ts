// The limit on failed authentication per client address (docs/specification.md section 2), kept
// exactly and per isolate: the times of each address's failures within the last minute, and the keys
// (by hash) that authenticated within the last minute, which an address over its limit still serves.
// The Workers Rate Limiting binding cannot keep it: it counts every call made to it, per location,
// and cannot say when its window ends (Retry-After).
import { clientBucket } from "../admin/client-address.ts";
import { BoundedLru } from "../lib/lru.ts";

/** Failed authentications from one address within the window that lock it. */
export const FAILED_AUTH_LIMIT = 300;
export const FAILED_AUTH_WINDOW_MS = 60_000;
/**
 * Addresses tracked at most; when full, the one whose latest failure is oldest is dropped. An address
 * holds at most FAILED_AUTH_LIMIT times (8 bytes each), so the whole table stays near 5 MB at most.
 */
export const FAILED_AUTH_ADDRESSES = 2_000;
/** Keys remembered as recently valid at most (a hash each); when full, the least recently used go first. */
export const RECENTLY_VALID_KEYS = 10_000;

// Per address, its failure times within the window, ascending, the newest FAILED_AUTH_LIMIT only
// (the oldest of those is the one whose age ends a lockout). Map order is the order of each
// address's latest failure, so the first address is the one to drop.
const failures = new Map<string, number[]>();
// A key's entry lives FAILED_AUTH_WINDOW_MS from its latest authentication.
const recentlyValid = new BoundedLru<true>(RECENTLY_VALID_KEYS, FAILED_AUTH_WINDOW_MS);

/** The bucket that a request's failures count in: its CF-Connecting-IP, an IPv6 address by its /64. */
export function failureBucket(connectingIp: string | undefined): string {
  return clientBucket(connectingIp);
}

/** Seconds until the address is under its limit again, or null when it is under it now. */
export function lockedForSeconds(address: string, nowMs: number): number | null {
  const times = failures.get(address);
  if (!times) return null;
  dropExpired(times, nowMs);
  if (times.length === 0) {
    failures.delete(address);
    return null;
  }
  if (times.length < FAILED_AUTH_LIMIT) return null;
  return Math.ceil((times[0]! + FAILED_AUTH_WINDOW_MS - nowMs) / 1000);
}

/** Counts one failed authentication from the address; true when it brought the address to its limit. */
export function recordFailure(address: string, nowMs: number): boolean {
  const times = failures.get(address) ?? [];
  dropExpired(times, nowMs);
  const before = times.length;
  // Requests finish out of order: the list stays sorted whatever order their times arrive in.
  let at = times.length;
  while (at > 0 && times[at - 1]! > nowMs) at--;
  times.splice(at, 0, nowMs);
  // Requests in flight when the limit was reached still count: keep only the newest FAILED_AUTH_LIMIT.
  if (times.length > FAILED_AUTH_LIMIT) times.shift();
  failures.delete(address);
  failures.set(address, times);
  while (failures.size > FAILED_AUTH_ADDRESSES) failures.delete(failures.keys().next().value!);
  return before === FAILED_AUTH_LIMIT - 1;
}

/** Remembers that the key with this hash authenticated now. */
export function rememberValid(hash: string, nowMs: number): void {
  recentlyValid.set(hash, true, nowMs);
}

/** Whether the key with this hash authenticated within the window. */
export function isRecentlyValid(hash: string, nowMs: number): boolean {
  return recentlyValid.get(hash, nowMs) === true;
}

/** Forgets every failure and every recently valid key (tests; a new isolate starts empty). */
export function clearFailedAuth(): void {
  failures.clear();
  recentlyValid.clear();
}

function dropExpired(times: number[], nowMs: number): void {
  let expired = 0;
  while (expired < times.length && times[expired]! <= nowMs - FAILED_AUTH_WINDOW_MS) expired++;
  if (expired > 0) times.splice(0, expired);
}
