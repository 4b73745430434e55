// The limit on failed authentication per client address (docs/specification.md section 2), exact, per isolate. Not the
// Rate Limiting binding: it counts every call, per location, and cannot give a Retry-After.
import { clientBucket } from "../platform/lib/client-address.ts";
import { BoundedLru } from "../platform/lib/lru.ts";

export const FAILED_AUTH_LIMIT = 300;
export const FAILED_AUTH_WINDOW_MS = 60_000;
/** At most FAILED_AUTH_LIMIT times of 8 bytes per address: about 5 MB in all. */
export const FAILED_AUTH_ADDRESSES = 2_000;
export const RECENTLY_VALID_KEYS = 10_000;

// Times ascending (the oldest ends a lockout); Map order by latest failure, so the first address goes when full.
const failures = new Map<string, number[]>();
// Keys (by hash) that authenticated within the window: a locked address still serves them.
const recentlyValid = new BoundedLru<true>(RECENTLY_VALID_KEYS, FAILED_AUTH_WINDOW_MS);

export function failureBucket(connectingIp: string | undefined): string {
  return clientBucket(connectingIp);
}

/** False while no address has a failure counted: no address can be over its limit. */
export function failuresCounted(): boolean {
  return failures.size > 0;
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

export function rememberValid(hash: string, nowMs: number): void {
  recentlyValid.set(hash, true, nowMs);
}

export function isRecentlyValid(hash: string, nowMs: number): boolean {
  return recentlyValid.get(hash, nowMs) === true;
}

export function clearFailedAuth(): void {
  failures.clear();
  recentlyValid.clear();
}

function dropExpired(times: number[], nowMs: number): void {
  let expired = 0;
  while (expired < times.length && times[expired]! <= nowMs - FAILED_AUTH_WINDOW_MS) expired++;
  if (expired > 0) times.splice(0, expired);
}
