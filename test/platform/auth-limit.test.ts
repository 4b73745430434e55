// The limit on failed authentication per client address (docs/specification.md section 2), through
// HTTP into the worker: 300 failures within a minute lock the address; its further requests get 429
// without a key lookup (no KV read, counted at the KEYS binding itself) unless their key
// authenticated within the last minute; other addresses are unaffected; the lock ends when the
// oldest of those failures is a minute old.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS } from "../../src/access/access.failed-auth.ts";
import { newSecret } from "../../src/keys/keys.secret.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import { apiRoutes, API_PREFIX } from "../../src/api.ts";
import { callWithEnv } from "../helpers/faults.ts";
import { type CallOptions, type CallResult, errorEnvelope, statusAndHeaders } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { captureConsole, type LogLine } from "../helpers/logs.ts";
import { workOf } from "../helpers/timing-header.ts";

const PATH = "/api/area";
const T0 = Date.parse("2026-05-01T10:00:00.000Z");
const LIMITED = "Too many requests with a missing or invalid API key from this address; retry later";
const UNKNOWN = "Invalid API key: no such key";

/** The KEYS binding, counting every read made of it. */
function countingKV(real: KVNamespace): { kv: KVNamespace; reads: () => number } {
  let reads = 0;
  const kv = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getWithMetadata" || prop === "list") {
        return (...args: unknown[]) => {
          reads++;
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { kv, reads: () => reads };
}

let keys: ReturnType<typeof countingKV>;
let logs: LogLine[];

/** A request from this client address (CF-Connecting-IP), with the counted KEYS binding. */
function from(address: string | null, path = PATH, options: CallOptions = {}): Promise<CallResult> {
  const headers = { ...options.headers, ...(address === null ? {} : { "CF-Connecting-IP": address }) };
  return callWithEnv({ KEYS: keys.kv }, path, { ...options, headers });
}

/** A whole 429 of the limit: envelope, Retry-After, no WWW-Authenticate, no KV read (by Server-Timing and at the binding). */
async function expectLimited(request: () => Promise<CallResult>, retryAfter: number, path = PATH) {
  const readsBefore = keys.reads();
  const res = await request();
  expect({
    ...statusAndHeaders(res, "Retry-After", "WWW-Authenticate", "Content-Type"),
    body: res.body,
    work: workOf(res),
    kvReadsAtBinding: keys.reads() - readsBefore,
  }).toEqual({
    status: 429,
    "Retry-After": String(retryAfter),
    "WWW-Authenticate": null,
    "Content-Type": "application/json",
    body: errorEnvelope(429, "RATE_LIMITED", LIMITED, path.split("?")[0]!),
    work: { d1: 0, kv: 0 },
    kvReadsAtBinding: 0,
  });
}

/** A whole 401 with this description, and the KV reads it made. */
function expect401(res: CallResult, description: string, kv: number, path = PATH) {
  expect({ ...statusAndHeaders(res, "Retry-After", "WWW-Authenticate"), body: res.body, kv: workOf(res).kv }).toEqual({
    status: 401,
    "Retry-After": null,
    "WWW-Authenticate": "Bearer",
    body: errorEnvelope(401, "AUTHENTICATION_ERROR", description, path.split("?")[0]!),
    kv,
  });
}

function expect200(res: CallResult) {
  expect({ ...statusAndHeaders(res, "Retry-After", "WWW-Authenticate"), body: res.body }).toEqual({
    status: 200,
    "Retry-After": null,
    "WWW-Authenticate": null,
    body: { data: [] },
  });
}

/** The warnings that an address reached its limit. */
function limitWarnings(): Record<string, unknown>[] {
  return logs
    .filter((l) => l.method === "warn")
    .map((l) => JSON.parse(l.text) as Record<string, unknown>)
    .filter((line) => line.event === "auth_failure_limit_reached");
}

beforeEach(() => {
  clearIsolateCaches();
  keys = countingKV(env.KEYS);
  // One log line a request: hundreds of them would bury the test output.
  logs = captureConsole();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("failed authentication from one address", () => {
  it("locks it after 300 failures in a minute: 429 without a key lookup, except for keys that authenticated in the last minute; the lock ends with the window", async () => {
    expect({ limit: FAILED_AUTH_LIMIT, window: FAILED_AUTH_WINDOW_MS }).toEqual({ limit: 300, window: 60_000 });
    const A = "203.0.113.7";
    const B = "198.51.100.20";
    const inUse = await makeKey({ name: "in use" });
    const idle = await makeKey({ name: "idle for a minute" });
    const unused = await makeKey({ name: "never used from here" });
    vi.setSystemTime(T0 - 1);
    expect200(await from(A, PATH, { key: inUse.secret }));
    expect200(await from(A, PATH, { key: idle.secret }));

    // 400 random well-formed keys, one every 100 ms from T0: each of the first 300 costs its KV read
    // and is a 401; from the 301st on, the answer is 429 with the seconds until T0 + 60 s, and no read.
    for (let i = 0; i < 400; i++) {
      vi.setSystemTime(T0 + i * 100);
      const secret = newSecret("test");
      if (i < FAILED_AUTH_LIMIT) expect401(await from(A, PATH, { key: secret }), UNKNOWN, 1);
      else
        await expectLimited(() => from(A, PATH, { key: secret }), Math.ceil((FAILED_AUTH_WINDOW_MS - i * 100) / 1000));
    }
    expect(limitWarnings()).toEqual([
      { level: "warn", request_id: expect.any(String), event: "auth_failure_limit_reached", address: A },
    ]);

    vi.setSystemTime(T0 + 40_000);
    // A key that authenticated within the minute is served as usual (its record may be read again).
    expect200(await from(A, PATH, { key: inUse.secret }));
    // A valid key that this address has not seen authenticate is refused without being looked up,
    // as is a request without a key or with a malformed one.
    await expectLimited(() => from(A, PATH, { key: unused.secret }), 20);
    await expectLimited(() => from(A), 20);
    await expectLimited(() => from(A, PATH, { headers: { Authorization: "Bearer sk_test_short" } }), 20);
    await expectLimited(() => from(A, `${PATH}?x=1`, { headers: { Authorization: "Basic abc" } }), 20);

    // Another address is unaffected: its failures are its own, its keys are served.
    expect401(await from(B, PATH, { key: newSecret("test") }), UNKNOWN, 1);
    expect200(await from(B, PATH, { key: unused.secret }));
    // ... and a key that has now authenticated (from anywhere) is known as valid here too.
    expect200(await from(A, PATH, { key: unused.secret }));

    // The idle key last authenticated at T0 - 1: a minute later it is no longer known as valid.
    vi.setSystemTime(T0 + 59_998);
    expect200(await from(A, PATH, { key: inUse.secret }));
    vi.setSystemTime(T0 + 59_999);
    await expectLimited(() => from(A, PATH, { key: idle.secret }), 1);

    // At T0 + 60 s the first failure is a minute old: 299 remain, so the address is served again,
    // and one more failure locks it until the second failure (T0 + 100 ms) is a minute old.
    vi.setSystemTime(T0 + 60_000);
    expect200(await from(A, PATH, { key: idle.secret }));
    expect401(await from(A, PATH, { key: newSecret("test") }), UNKNOWN, 1);
    await expectLimited(() => from(A, PATH, { key: newSecret("test") }), 1);
    expect(limitWarnings()).toHaveLength(2);

    // Once every failure is a minute old, nothing of the lock is left.
    vi.setSystemTime(T0 + 120_000);
    expect401(await from(A, PATH, { key: newSecret("test") }), UNKNOWN, 1);
    expect200(await from(A, PATH, { key: unused.secret }));
  }, 60_000);

  it("counts every 401: missing, malformed, wrong mode, unknown, revoked, expired", async () => {
    const A = "192.0.2.44";
    const revoked = await makeKey({ name: "revoked" });
    await new KeyStore(env.KEYS, env.DB).revoke(revoked.record.id, { actor: "cli" });
    const expiring = await makeKey({ name: "expiring", expiresInSeconds: 1 });
    const live = newSecret("live");
    const kinds: [CallOptions, string][] = [
      [{}, "Missing credentials: send the header 'Authorization: Bearer <API key>'"],
      [
        { headers: { Authorization: "Token abc" } },
        "Malformed Authorization header: it must be the word Bearer, one space and the API key",
      ],
      [
        { headers: { Authorization: "Bearer sk_test_short" } },
        "Malformed API key: the header must be 'Bearer', one space and the key (sk_test_ or sk_live_ and its characters), with no other whitespace",
      ],
      [{ key: live }, "Wrong mode: this is a live-mode key; this deployment accepts test-mode keys only"],
      [{ key: revoked.secret }, "Invalid API key: the key has been revoked"],
    ];
    vi.setSystemTime(T0 + 1_000);
    for (let i = 0; i < 250; i++) {
      const [options, description] = kinds[i % kinds.length]!;
      const res = await from(A, PATH, options);
      expect({ i, status: res.status, body: res.body }).toEqual({
        i,
        status: 401,
        body: errorEnvelope(401, "AUTHENTICATION_ERROR", description, PATH),
      });
    }
    for (let i = 0; i < 49; i++)
      expect401(await from(A, PATH, { key: expiring.secret }), "Invalid API key: the key has expired", i === 0 ? 1 : 0);
    expect401(await from(A, PATH, { key: newSecret("test") }), UNKNOWN, 1);
    await expectLimited(() => from(A), 60);
    await expectLimited(() => from(A, PATH, { key: live }), 60);
  });

  it("takes an IPv6 address by its /64, and every request without an address as one more address", async () => {
    const fail = (address: string | null) => from(address, PATH, { headers: { Authorization: "Bearer nope" } });
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) {
      expect((await fail(`2001:db8:7:8::${(i + 1).toString(16)}`)).status).toBe(401);
      expect((await fail(null)).status).toBe(401);
    }
    await expectLimited(() => fail("2001:DB8:7:8:ffff:ffff:ffff:ffff"), 60);
    await expectLimited(() => fail(null), 60);
    expect((await fail("2001:db8:7:9::1")).status).toBe(401);
    expect((await fail("203.0.113.9")).status).toBe(401);
  }, 60_000);
});

describe("a locked address", () => {
  /** Locks the address with 300 failures at T0. */
  async function lock(address: string) {
    await Promise.all(Array.from({ length: FAILED_AUTH_LIMIT }, () => from(address)));
    await expectLimited(() => from(address), 60);
  }

  it("gets 429 on every API route, under /api and at the root, whatever else is wrong with the request", async () => {
    const A = "203.0.113.50";
    await lock(A);
    const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "1");
    for (const { route } of apiRoutes) {
      const method = route.method.toUpperCase();
      for (const url of [`${API_PREFIX}${concrete(route.path)}`, concrete(route.path)]) {
        const body = method === "POST" ? "{not json" : undefined;
        await expectLimited(
          () => from(A, `${url}?count=0&unknown=1`, { method, body, key: newSecret("test") }),
          60,
          url,
        );
      }
    }
    // GET /healthz takes no key: not limited.
    expect((await from(A, "/api/healthz")).status).toBe(200);
  });
});
