// The bounds of the failed-authentication table (docs/specification.md section 2): the addresses it
// tracks and the recently valid keys it remembers, each capped, the stalest dropped first.
import { beforeEach, describe, expect, it } from "vitest";
import {
  clearFailedAuth,
  FAILED_AUTH_ADDRESSES,
  FAILED_AUTH_LIMIT,
  FAILED_AUTH_WINDOW_MS,
  isRecentlyValid,
  lockedForSeconds,
  recordFailure,
  RECENTLY_VALID_KEYS,
  rememberValid,
} from "./access.failed-auth.ts";

const T0 = Date.parse("2026-05-01T10:00:00.000Z");

function lockAt(address: string, nowMs: number) {
  for (let i = 0; i < FAILED_AUTH_LIMIT; i++) recordFailure(address, nowMs);
}

beforeEach(() => clearFailedAuth());

describe("the addresses tracked", () => {
  it("are at most FAILED_AUTH_ADDRESSES: a new one drops the address whose latest failure is oldest", () => {
    expect(FAILED_AUTH_ADDRESSES).toBe(2_000);
    lockAt("stale", T0);
    lockAt("active", T0);
    for (let i = 0; i < FAILED_AUTH_ADDRESSES - 2; i++) recordFailure(`other ${i}`, T0 + 1);
    // Full: the next address drops "stale", the one whose latest failure is oldest.
    recordFailure("active", T0 + 2);
    recordFailure("one more", T0 + 3);
    expect({ stale: lockedForSeconds("stale", T0 + 3), active: lockedForSeconds("active", T0 + 3) }).toEqual({
      stale: null,
      active: 60,
    });
  });

  it("keep at most FAILED_AUTH_LIMIT times each, the newest: the lock ends when the oldest of those is a minute old", () => {
    for (let i = 0; i < FAILED_AUTH_LIMIT + 5; i++) recordFailure("a", T0 + i * 10);
    const last = T0 + (FAILED_AUTH_LIMIT + 4) * 10;
    // The 6th failure (T0 + 50 ms) is the oldest of the newest 300.
    expect(lockedForSeconds("a", last)).toBe(Math.ceil((T0 + 50 + FAILED_AUTH_WINDOW_MS - last) / 1000));
    expect(lockedForSeconds("a", T0 + 50 + FAILED_AUTH_WINDOW_MS - 1)).toBe(1);
    expect(lockedForSeconds("a", T0 + 50 + FAILED_AUTH_WINDOW_MS)).toBe(null);
  });

  it("count failures whose times arrive out of order (requests finish out of order)", () => {
    recordFailure("a", T0 + 500);
    for (let i = 0; i < FAILED_AUTH_LIMIT - 1; i++) recordFailure("a", T0);
    expect(lockedForSeconds("a", T0 + 500)).toBe(60);
    // The 299 at T0 leave the window first, and the one at T0 + 500 ms stays.
    expect(lockedForSeconds("a", T0 + FAILED_AUTH_WINDOW_MS)).toBe(null);
    expect(recordFailure("a", T0 + FAILED_AUTH_WINDOW_MS)).toBe(false);
  });

  it("say when an address reaches its limit, once", () => {
    const reached = Array.from({ length: FAILED_AUTH_LIMIT + 2 }, () => recordFailure("a", T0));
    expect(reached.flatMap((r, i) => (r ? [i + 1] : []))).toEqual([FAILED_AUTH_LIMIT]);
  });
});

describe("the recently valid keys", () => {
  it("are at most RECENTLY_VALID_KEYS, the least recently used dropped first, each for a minute after it authenticated", () => {
    expect(RECENTLY_VALID_KEYS).toBe(10_000);
    for (let i = 0; i < RECENTLY_VALID_KEYS; i++) rememberValid(`hash ${i}`, T0);
    expect(isRecentlyValid("hash 0", T0)).toBe(true); // used: now the most recent
    rememberValid("one more", T0);
    expect({
      first: isRecentlyValid("hash 0", T0),
      second: isRecentlyValid("hash 1", T0),
      newest: isRecentlyValid("one more", T0),
    }).toEqual({
      first: true,
      second: false,
      newest: true,
    });
    rememberValid("hash 2", T0 + 30_000);
    expect(isRecentlyValid("hash 2", T0 + 30_000 + FAILED_AUTH_WINDOW_MS - 1)).toBe(true);
    expect(isRecentlyValid("hash 3", T0 + FAILED_AUTH_WINDOW_MS)).toBe(false);
  });
});
