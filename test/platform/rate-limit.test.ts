// Per-key rate limit through the real local Rate Limiting binding (miniflare's, configured from
// wrangler.toml's [[ratelimits]]: 600 a minute). Requests are made cheap by failing validation
// after authentication and the limiter: no D1 work, yet each one spends the key's budget.
// The burst goes through callWithEnv({}) (the app itself with the real bindings): in this pool,
// the worker's own fetch slows down with every request it has served (about 80 ms a request after
// 600), which would stretch a burst past the one-minute window it must fit in.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, errorEnvelope, type CallResult } from "../helpers/http.ts";
import { callWithEnv } from "../helpers/faults.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";

const LIMIT = 600;
const CHEAP = "/api/customers?count=0";
const CHEAP_422 = errorEnvelope(
  422,
  "VALIDATION_ERROR",
  "count must be an integer between 1 and 100",
  "/api/customers",
  {
    fields: [{ field: "count", message: "must be an integer between 1 and 100" }],
  },
);

/** The binding's windows are aligned to the wall-clock minute: a counter restarts at each one. */
const minute = () => Math.floor(Date.now() / 60_000);

/**
 * Spends a fresh key's whole budget (LIMIT requests, each let through), then runs probe with it.
 * A burst and its probe that straddle a minute boundary prove nothing (the counter restarted in
 * between), so that attempt is thrown away and made again with a new key.
 */
async function afterBurst<T>(probe: (secret: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { secret } = await makeKey({ name: `burst ${attempt}` });
    const start = minute();
    const statuses: Record<number, number> = {};
    for (let sent = 0; sent < LIMIT; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => callWithEnv({}, CHEAP, { key: secret })));
      for (const r of batch) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
    const result = await probe(secret);
    if (minute() !== start) continue;
    expect(statuses).toEqual({ 422: LIMIT });
    return result;
  }
  throw new Error("three bursts in a row straddled a minute boundary");
}

function expectLimited(res: CallResult, path: string) {
  expect(res.status).toBe(429);
  expect(res.headers.get("Retry-After")).toBe("60");
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(res.body).toEqual(errorEnvelope(429, "RATE_LIMITED", "Too many requests for this key; retry later", path));
}

describe("per-key rate limit", () => {
  beforeAll(() => {
    // The request log writes one line a request; hundreds of them would bury the test output.
    vi.spyOn(console, "log").mockImplementation(() => undefined);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it("is the binding of wrangler.toml, 600 a minute", () => {
    expect(env.RATE_LIMIT_PER_MINUTE).toBe(String(LIMIT));
    expect(typeof env.RATE_LIMITER?.limit).toBe("function");
  });

  it("lets a key make 600 requests, then answers 429 RATE_LIMITED with Retry-After on every endpoint", async () => {
    const [invalid, valid, root] = await afterBurst((key) =>
      Promise.all([call(CHEAP, { key }), call("/api/areas", { key }), call("/customers", { key })]),
    );
    expectLimited(invalid!, "/api/customers");
    expectLimited(valid!, "/api/areas");
    expectLimited(root!, "/customers");
  }, 120_000);

  it("never limits another key, and still authenticates first", async () => {
    const { secret: other } = await makeKey({ name: "quiet neighbour" });
    const [limited, neighbour, neighbourAreas, badKey] = await afterBurst((key) =>
      Promise.all([
        call(CHEAP, { key }),
        call(CHEAP, { key: other }),
        call("/areas", { key: other }),
        call(CHEAP, { key: `${key}x` }),
      ]),
    );
    expectLimited(limited!, "/api/customers");
    expect(neighbour!.status).toBe(422);
    expect(neighbour!.body).toEqual(CHEAP_422);
    expect(neighbourAreas!.status).toBe(200);
    expect(badKey!.status).toBe(401);
    expect(badKey!.body.error.code).toBe("AUTHENTICATION_ERROR");
  }, 120_000);

  it("counts per lineage: a key and its rolled successor together are answered at most 600 a minute", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const old = await makeKey({ name: `lineage ${attempt}` });
      const store = new KeyStore(env.KEYS, env.DB);
      const next = (await store.roll(old.record.id, 600, { actor: "cli" }))!;
      const { secret: other } = await makeKey({ name: `other lineage ${attempt}` });
      const start = minute();
      const statuses: Record<number, number> = {};
      // Half the budget with the old key (still in its grace), half with its successor.
      for (let sent = 0; sent < LIMIT; sent += 50) {
        const key = sent < LIMIT / 2 ? old.secret : next.secret;
        const batch = await Promise.all(Array.from({ length: 50 }, () => callWithEnv({}, CHEAP, { key })));
        for (const r of batch) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
      const [fromOld, fromNext, fromOther] = await Promise.all([
        call(CHEAP, { key: old.secret }),
        call(CHEAP, { key: next.secret }),
        call(CHEAP, { key: other }),
      ]);
      if (minute() !== start) continue;
      expect(statuses).toEqual({ 422: LIMIT });
      expectLimited(fromOld!, "/api/customers");
      expectLimited(fromNext!, "/api/customers");
      expect(fromOther!.status).toBe(422);
      return;
    }
    throw new Error("three bursts in a row straddled a minute boundary");
  }, 120_000);

  it("is off when RATE_LIMIT_PER_MINUTE is 0", async () => {
    const [limited, unlimited] = await afterBurst(async (key) => [
      await call(CHEAP, { key }),
      await callWithEnv({ RATE_LIMIT_PER_MINUTE: "0" }, CHEAP, { key }),
    ]);
    expectLimited(limited!, "/api/customers");
    expect(unlimited!.status).toBe(422);
    expect(unlimited!.body).toEqual(CHEAP_422);
  }, 120_000);
});
