// Outages of the worker's dependencies, injected by wrapping the real bindings so that their calls
// reject (test/helpers/faults.ts). Under every fault the service answers in its envelope, says
// nothing of the cause, lets no one in, and leaves nothing half-written.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  callWithEnv,
  D1_FAULT,
  downD1,
  downKV,
  downRateLimiter,
  expectNoLeak,
  failingWriteBatchD1,
  garbageD1,
  KV_FAULT,
} from "../helpers/faults.ts";
import { call, errorEnvelope, type CallOptions, type CallResult } from "../helpers/http.ts";
import { clearIsolateCaches } from "../helpers/api-keys.ts";
import { captureConsole, jsonLinesOf, type LogLine } from "../helpers/logs.ts";
import { seedFixtureAndKey } from "../helpers/seed.ts";
import { createBody } from "../fixtures/create-body.ts";

let key: string;

beforeAll(async () => (key = await seedFixtureAndKey("faults")));

/** Empties the KV lookup cache and this isolate's tiers: the next lookup must go to D1. */
async function coldCaches() {
  clearIsolateCaches();
  const { keys } = await env.LOOKUP_CACHE.list();
  await Promise.all(keys.map((k) => env.LOOKUP_CACHE.delete(k.name)));
}

const pathOf = (url: string) => url.split("?")[0]!;

function expectUnavailable(res: CallResult, url: string, what: "database" | "key store") {
  expect({ url, status: res.status, body: res.body }).toEqual({
    url,
    status: 503,
    body: errorEnvelope(503, "SERVICE_UNAVAILABLE", `The ${what} cannot be reached; retry later`, pathOf(url)),
  });
  expect(res.headers.get("Retry-After")).toBe("5");
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(res.headers.get("X-Request-Id")).toBeTruthy();
  expectNoLeak(res.text);
}

const NEW_CUSTOMER = createBody("9811122233", {
  company_name: "Fault Line Traders",
  contactpersons_name: "Imran Q",
  address: "7 Ring Road",
});

/** Every endpoint that reads or writes D1, as [url, options]. */
const D1_ENDPOINTS: [string, CallOptions][] = [
  ["/api/customers", {}],
  ["/customers?count=5&page=2", {}],
  ["/api/orders?phone_number=9820000001", {}],
  ["/orders?phone_number=%2B91%2098200%2000002&from_date=01-01-2026", {}],
  ["/api/postalcodes", {}],
  ["/postalcodes?code=400069", {}],
  ["/api/salesagents", {}],
  ["/api/fetch-salesagent-by-pincode?pincode=560034", {}],
  ["/api/area", {}],
  ["/areas", {}],
  ["/api/customers/create", { method: "POST", body: NEW_CUSTOMER }],
  ["/customers/create", { method: "POST", body: NEW_CUSTOMER, headers: { "Idempotency-Key": "d1-down" } }],
];

async function rowCounts() {
  const row = await env.DB.prepare(
    "select (select count(*) from customers) c, (select count(*) from customer_addresses) a, (select count(*) from idempotency_keys) k",
  ).first();
  return row as { c: number; a: number; k: number };
}

describe("KV lookup cache down", () => {
  it.each([
    "/api/area",
    "/areas",
    "/api/fetch-salesagent-by-pincode?pincode=400069",
    "/fetch-salesagent-by-pincode?pincode=110001",
  ])("answers %s from D1: the same status, bytes, ETag and caching rule", async (url) => {
    await coldCaches();
    const healthy = await call(url, { key });
    expect(healthy.status).toBe(200);
    await coldCaches();
    const degraded = await callWithEnv({ LOOKUP_CACHE: downKV() }, url, { key });
    expect(degraded.status).toBe(200);
    expect(degraded.text).toBe(healthy.text);
    expect(degraded.headers.get("ETag")).toBe(healthy.headers.get("ETag"));
    expect(degraded.headers.get("Cache-Control")).toBe("private, no-cache");
    // It did go to D1 (the isolate tier was empty and KV failed).
    expect(degraded.headers.get("Server-Timing")).toMatch(/d1;dur=[\d.]+;desc="[1-9]\d* round trips?"/);
  });

  it("still answers If-None-Match with 304", async () => {
    await coldCaches();
    const first = await callWithEnv({ LOOKUP_CACHE: downKV() }, "/api/area", { key });
    clearIsolateCaches();
    const again = await callWithEnv({ LOOKUP_CACHE: downKV() }, "/api/area", {
      key,
      headers: { "If-None-Match": first.headers.get("ETag")! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("leaves the other endpoints alone", async () => {
    const res = await callWithEnv({ LOOKUP_CACHE: downKV() }, "/api/customers?count=1", { key });
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.total).toBe(25);
  });
});

describe("key store down", () => {
  beforeEach(() => clearIsolateCaches());

  it("answers 503 with Retry-After for a valid key and lets no one in, on every endpoint", async () => {
    const before = await rowCounts();
    const unknown = `sk_test_${"A".repeat(40)}`;
    for (const [url, options] of D1_ENDPOINTS) {
      for (const secret of [key, unknown]) {
        clearIsolateCaches();
        const res = await callWithEnv({ KEYS: downKV() }, url, { ...options, key: secret });
        expectUnavailable(res, url, "key store");
        expect(res.headers.get("WWW-Authenticate")).toBeNull();
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("still refuses what needs no lookup: a missing or malformed key is 401", async () => {
    const missing = await callWithEnv({ KEYS: downKV() }, "/api/customers");
    expect(missing.status).toBe(401);
    const malformed = await callWithEnv({ KEYS: downKV() }, "/api/customers", {
      headers: { Authorization: "Bearer  two-spaces" },
    });
    expect(malformed.status).toBe(401);
  });

  it("recovers as soon as the store is back", async () => {
    const down = await callWithEnv({ KEYS: downKV() }, "/api/customers?count=1", { key });
    expect(down.status).toBe(503);
    const back = await call("/api/customers?count=1", { key });
    expect(back.status).toBe(200);
  });
});

describe("D1 down", () => {
  let lines: LogLine[];
  beforeEach(async () => {
    await coldCaches();
    lines = captureConsole();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("answers 503 with Retry-After on every D1-backed endpoint, and logs no SQL or driver text", async () => {
    const before = await rowCounts();
    for (const [url, options] of D1_ENDPOINTS) {
      clearIsolateCaches();
      expectUnavailable(await callWithEnv({ DB: downD1() }, url, { ...options, key }), url, "database");
    }
    expect(await rowCounts()).toEqual(before);
    const parsed = lines.map((l) => ({ method: l.method, line: JSON.parse(l.text) as Record<string, unknown> }));
    const errorLines = parsed.filter(({ line }) => line.level === "error");
    expect(errorLines.length).toBe(D1_ENDPOINTS.length);
    // The error's name (and its cause's), never its message: driver messages carry SQL.
    for (const { method, line } of errorLines) {
      expect(line).toEqual({
        level: "error",
        request_id: expect.any(String),
        status: 503,
        error: expect.stringContaining("DependencyError"),
      });
      expect(method).toBe("error");
    }
    // Each 503's request line is an error line too.
    const requestLines = parsed.filter(({ line }) => "duration_ms" in line);
    expect(requestLines.map(({ method, line }) => [method, line.status])).toEqual(
      D1_ENDPOINTS.map(() => ["error", 503]),
    );
    const all = lines.map((l) => l.text).join("\n");
    expectNoLeak(all);
    expect(all).not.toContain(D1_FAULT);
  });

  it("still serves lookups that are cached (KV, or the isolate tier)", async () => {
    const warm = await call("/api/area", { key });
    expect(warm.status).toBe(200);
    const fromIsolate = await callWithEnv({ DB: downD1() }, "/api/area", { key });
    clearIsolateCaches();
    const fromKv = await callWithEnv({ DB: downD1() }, "/api/area", { key });
    expect([fromIsolate.status, fromKv.status]).toEqual([200, 200]);
    expect(fromIsolate.text).toBe(warm.text);
    expect(fromKv.text).toBe(warm.text);
  });

  it("answers 503 when both D1 and the lookup cache are down", async () => {
    const res = await callWithEnv(
      { DB: downD1(), LOOKUP_CACHE: downKV() },
      "/api/fetch-salesagent-by-pincode?pincode=400050",
      { key },
    );
    expectUnavailable(res, "/api/fetch-salesagent-by-pincode?pincode=400050", "database");
  });

  it("does not hide routing answers: an unknown path is still 404 and a wrong method 405", async () => {
    const missing = await callWithEnv({ DB: downD1() }, "/api/nowhere", { key });
    expect(missing.status).toBe(404);
    const method = await callWithEnv({ DB: downD1() }, "/api/customers", { method: "DELETE", key });
    expect(method.status).toBe(405);
    expect(method.headers.get("Allow")).toBe("GET, HEAD");
  });
});

describe("a failure inside the create batch", () => {
  it("writes nothing: no customer, no address, no idempotency record; the same request succeeds afterwards", async () => {
    const before = await rowCounts();
    const db = failingWriteBatchD1();
    const headers = { "Idempotency-Key": "batch-fault-1" };
    const body = { ...NEW_CUSTOMER, mobile_number: "+91 98111 22244" };
    // Usage recording off: its write, on the same failing D1, would be a second failed write batch.
    const res = await callWithEnv({ DB: db, USAGE_FLUSH_SECONDS: "off" }, "/api/customers/create", {
      method: "POST",
      key,
      body,
      headers,
    });
    // The write batch did run (it is the one that failed) and D1 rolled it back.
    expect(db.writeBatchesFailed).toBe(1);
    expectUnavailable(res, "/api/customers/create", "database");
    expect(await rowCounts()).toEqual(before);
    expect(
      await env.DB.prepare("select count(*) n from customers where phone_key = ?").bind("9811122244").first(),
    ).toEqual({ n: 0 });
    const orders = await call("/api/orders?phone_number=9811122244", { key });
    expect(orders.status).toBe(404);

    const retry = await call("/api/customers/create", { method: "POST", key, body, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await rowCounts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("writes nothing without an Idempotency-Key either", async () => {
    const before = await rowCounts();
    const db = failingWriteBatchD1();
    const res = await callWithEnv({ DB: db, USAGE_FLUSH_SECONDS: "off" }, "/customers/create", {
      method: "POST",
      key,
      body: { ...NEW_CUSTOMER, mobile_number: "9811122255" },
    });
    expect(db.writeBatchesFailed).toBe(1);
    expectUnavailable(res, "/customers/create", "database");
    expect(await rowCounts()).toEqual(before);
  });
});

describe("rate limiter down", () => {
  it("lets authenticated requests through (it guards capacity, not access) and logs it", async () => {
    const lines = captureConsole();
    try {
      const res = await callWithEnv({ RATE_LIMITER: downRateLimiter() }, "/api/customers?count=1", {
        key,
        headers: { "X-Request-Id": "limiter-down" },
      });
      expect(res.status).toBe(200);
      const warning = jsonLinesOf(lines, "limiter-down").find(({ line }) => line.event === "rate_limiter_unavailable");
      expect(warning).toEqual({
        method: "warn",
        line: { level: "warn", request_id: "limiter-down", event: "rate_limiter_unavailable", error: "Error" },
      });
      const denied = await callWithEnv({ RATE_LIMITER: downRateLimiter() }, "/api/customers?count=1", {
        key: `${key}x`,
      });
      expect(denied.status).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("an unexpected fault", () => {
  it("is a 500 INTERNAL_ERROR envelope, never a bare page or a stack trace", async () => {
    // D1 answers, but with something no driver returns: the handler itself breaks.
    const broken = garbageD1();
    for (const url of ["/api/customers", "/api/orders?phone_number=9820000001", "/api/salesagents"]) {
      const res = await callWithEnv({ DB: broken }, url, { key });
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 500,
        body: errorEnvelope(500, "INTERNAL_ERROR", "The service failed to answer this request", pathOf(url)),
      });
      expectNoLeak(res.text);
    }
  });
});

it("names the faults it injects, so that expectNoLeak can look for them", () => {
  expect(() => expectNoLeak(D1_FAULT)).toThrow();
  expect(() => expectNoLeak(KV_FAULT)).toThrow();
  expect(() => expectNoLeak("Error: x\n    at handler (src/routes/x.ts:10:5)")).toThrow();
  expect(() => expectNoLeak('{"error":{"code":"SERVICE_UNAVAILABLE"}}')).not.toThrow();
});
