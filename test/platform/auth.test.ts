// Authentication (docs/specification.md section 2), through HTTP into the worker: every way a key can be missing,
// malformed, unknown, of the wrong mode, expired, revoked or rolled, and every route protected.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import app from "../../src/index.ts";
import { hashSecret, newSecret } from "../../src/keys/keys.secret.ts";
import {
  ISOLATE_KEY_CACHE_SIZE,
  ISOLATE_KEY_TTL_MS,
  keyCacheTtlMs,
  UNKNOWN_KEY_CACHE_SIZE,
} from "../../src/keys/keys.copy.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import { parseAuthorization } from "../../src/access/access.auth.ts";
import { API_PREFIX, apiRoutes, publicRoutes } from "../../src/api.ts";
import { callWithEnv } from "../helpers/faults.ts";
import { call, errorEnvelope, type CallResult } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";

const PATH = "/api/area";
const T0 = Date.parse("2026-05-01T10:00:00.000Z");

/** The published 401 descriptions, in the order a request meets them: the header, the key's mode, its record. */
const WHY = {
  missing: "Missing credentials: send the header 'Authorization: Bearer <API key>'",
  scheme: "Malformed Authorization header: it must be the word Bearer, one space and the API key",
  malformed:
    "Malformed API key: the header must be 'Bearer', one space and the key (sk_test_ or sk_live_ and its characters), with no other whitespace",
  liveKey: "Wrong mode: this is a live-mode key; this deployment accepts test-mode keys only",
  unknown: "Invalid API key: no such key",
  revoked: "Invalid API key: the key has been revoked",
  expired: "Invalid API key: the key has expired",
  graceEnded: "Invalid API key: the key was rolled and its grace period has ended; use its replacement",
};

/** The request with this Authorization header (none when undefined). */
function withHeader(authorization: string | undefined, path = PATH, method = "GET", body?: unknown) {
  return call(path, { method, body, headers: authorization === undefined ? {} : { Authorization: authorization } });
}

/** A whole 401: status, envelope, WWW-Authenticate, no D1 work, and nothing of any secret sent. */
function expect401(res: CallResult, description: string, path = PATH, secrets: string[] = []) {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 401,
    body: errorEnvelope(401, "AUTHENTICATION_ERROR", description, path.split("?")[0]!),
  });
  expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
  expect(res.headers.get("Server-Timing")).toMatch(/(^|,\s*)d1;dur=[\d.]+;desc="0 round trips"/);
  for (const secret of secrets) {
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain(secret.slice(8));
  }
}

function expect200(res: CallResult) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { data: [] } });
}

/** KV reads that the request made, from its Server-Timing. */
function kvReads(res: CallResult): number {
  const match = /kv;dur=[\d.]+;desc="(\d+) reads"/.exec(res.headers.get("Server-Timing") ?? "");
  if (!match) throw new Error(`no kv entry in Server-Timing: ${res.headers.get("Server-Timing")}`);
  return Number(match[1]);
}

beforeEach(() => clearIsolateCaches());
afterEach(() => vi.useRealTimers());

describe("the Authorization header", () => {
  it("is required: none, or an empty one, is 401 without any KV read", async () => {
    const none = await withHeader(undefined);
    expect401(none, WHY.missing);
    expect(kvReads(none)).toBe(0);
    expect401(await withHeader(""), WHY.missing);
  });

  it("must use the Bearer scheme", async () => {
    const { secret } = await makeKey();
    for (const header of [
      "Basic dXNlcjpwYXNzd29yZA==",
      `Basic ${secret}`,
      `Token ${secret}`,
      `Bearer: ${secret}`,
      `Bearers ${secret}`,
      secret,
      "Bearer",
    ]) {
      const res = await withHeader(header);
      expect401(res, WHY.scheme, PATH, [secret]);
      expect(kvReads(res)).toBe(0);
    }
  });

  it("accepts the scheme word in any letter case", async () => {
    const { secret } = await makeKey();
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) expect200(await withHeader(`${scheme} ${secret}`));
  });

  it("rejects every stray whitespace that reaches the worker", async () => {
    const { secret } = await makeKey();
    const cases: [string, string, string][] = [
      ["two spaces", `Bearer  ${secret}`, WHY.malformed],
      ["three spaces", `Bearer   ${secret}`, WHY.malformed],
      ["a tab for the space", `Bearer\t${secret}`, WHY.scheme],
      ["a space and a tab", `Bearer \t${secret}`, WHY.malformed],
      ["no space", `Bearer${secret}`, WHY.scheme],
      ["a space inside the key", `Bearer ${secret.slice(0, 20)} ${secret.slice(20)}`, WHY.malformed],
      ["a tab inside the key", `Bearer ${secret.slice(0, 20)}\t${secret.slice(20)}`, WHY.malformed],
      ["a space and more after the key", `Bearer ${secret} x`, WHY.malformed],
      ["a tab and more after the key", `Bearer ${secret}\tx`, WHY.malformed],
      // The Fetch API strips leading and trailing space, tab, CR and LF from a header value before
      // it is sent (see below), but not a vertical tab or form feed: they reach the worker.
      ["a trailing vertical tab", `Bearer ${secret}\u000b`, WHY.malformed],
      ["a trailing form feed", `Bearer ${secret}\f`, WHY.malformed],
      ["a leading form feed", `\fBearer ${secret}`, WHY.scheme],
    ];
    for (const [name, header, why] of cases) {
      const res = await withHeader(header);
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
      expect401(res, why, PATH, [secret]);
      expect(kvReads(res)).toBe(0);
    }
    expect200(await withHeader(`Bearer ${secret}`));
  });

  it("is parsed exactly, nothing trimmed (also the whitespace that HTTP clients strip)", () => {
    const secret = newSecret("test");
    expect(parseAuthorization(`Bearer ${secret}`)).toEqual({ secret, mode: "test" });
    expect(parseAuthorization(`bearer ${secret}`)).toEqual({ secret, mode: "test" });
    const cases: [string, string][] = [
      [` Bearer ${secret}`, "scheme"],
      [`\tBearer ${secret}`, "scheme"],
      [`Bearer ${secret} `, "malformed"],
      [`Bearer ${secret}\t`, "malformed"],
      [`Bearer ${secret}\n`, "malformed"],
      [`Bearer ${secret}\r\n`, "malformed"],
      [`Bearer\n${secret}`, "scheme"],
      [`Bearer  ${secret}`, "malformed"],
      [`Bearer ${secret.slice(0, 30)}\u00a0${secret.slice(30)}`, "malformed"],
      [`Bearer sk_test_short`, "malformed"],
      [`Bearer sk_prod_${secret.slice(8)}`, "malformed"],
      ["", "missing"],
    ];
    for (const [header, failure] of cases)
      expect({ header, parsed: parseAuthorization(header) }).toEqual({ header, parsed: { failure } });
    // What call() and any fetch client do to such a header before it leaves: the worker cannot see
    // it, which is why e2e/keys-cli.test.ts sends these bytes on a raw socket to wrangler dev.
    expect(new Headers({ Authorization: ` Bearer ${secret}\t` }).get("Authorization")).toBe(`Bearer ${secret}`);
  });
});

describe("the key", () => {
  it("must exist: an unknown key is 401 after one KV read, then cached", async () => {
    const unknown = newSecret("test");
    const first = await withHeader(`Bearer ${unknown}`);
    expect401(first, WHY.unknown, PATH, [unknown]);
    expect(kvReads(first)).toBe(1);
    const again = await withHeader(`Bearer ${unknown}`);
    expect401(again, WHY.unknown, PATH, [unknown]);
    expect(kvReads(again)).toBe(0);
  });

  it("is read once, then served from the isolate cache", async () => {
    const { secret } = await makeKey();
    const first = await call(PATH, { key: secret });
    expect200(first);
    expect(kvReads(first)).toBeGreaterThanOrEqual(1);
    const second = await call("/api/customers?count=1", { key: secret });
    expect(second.status).toBe(200);
    expect(second.headers.get("Server-Timing")).toMatch(/kv;dur=[\d.]+;desc="0 reads"/);
  });

  it("stays cached through a flood of more unknown keys than the key cache holds: each unknown key 401, the real key no KV read", async () => {
    // The clock stands still, so only the flood, not the time to live, could push the key out.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const { secret } = await makeKey();
    const warm = await call(PATH, { key: secret });
    expect200(warm);
    // The key's record, and the area list's lookup-cache entry (the isolate keeps both).
    expect(kvReads(warm)).toBe(2);

    const flood = Array.from({ length: ISOLATE_KEY_CACHE_SIZE + 1 }, () => newSecret("test"));
    // Each hundred from its own address, under the limit on failed authentication per address.
    for (let i = 0; i < flood.length; i += 100) {
      const headers = { "CF-Connecting-IP": `198.51.100.${i / 100}` };
      const answers = await Promise.all(
        flood.slice(i, i + 100).map((unknown) => call(PATH, { key: unknown, headers })),
      );
      for (const res of answers) {
        expect({ status: res.status, body: res.body, kv: kvReads(res) }).toEqual({
          status: 401,
          body: errorEnvelope(401, "AUTHENTICATION_ERROR", WHY.unknown, PATH),
          kv: 1,
        });
      }
    }

    const after = await call(PATH, { key: secret });
    expect200(after);
    expect(kvReads(after)).toBe(0);
    // The "no such key" answers are bounded too, and hold fewer than the flood's batches after the
    // first: the newest unknown key is answered from the cache, the oldest was dropped (a KV read).
    expect(UNKNOWN_KEY_CACHE_SIZE).toBeLessThan(flood.length - 100);
    for (const [unknown, kv] of [
      [flood.at(-1)!, 0],
      [flood[0]!, 1],
    ] as const) {
      const res = await call(PATH, { key: unknown });
      expect({ status: res.status, body: res.body, kv: kvReads(res) }).toEqual({
        status: 401,
        body: errorEnvelope(401, "AUTHENTICATION_ERROR", WHY.unknown, PATH),
        kv,
      });
    }
  }, 120_000);

  it("must be of the deployment's mode (test here)", async () => {
    const live = await makeKey({ mode: "live" });
    const res = await call(PATH, { key: live.secret });
    expect401(res, WHY.liveKey, PATH, [live.secret]);
    expect(kvReads(res)).toBe(0);
    // An unknown live key gets the same answer: the mode is refused before any look-up.
    expect401(await call(PATH, { key: newSecret("live") }), WHY.liveKey);
  });

  it("is refused when its stored record is of the other mode", async () => {
    // A test-mode secret whose record says live: only tampering makes one; still refused.
    const secret = newSecret("test");
    const { record } = await new KeyStore(env.KEYS, env.DB).create(
      { name: "tampered", mode: "live" },
      { actor: "cli" },
    );
    const hash = await hashSecret(secret);
    await env.KEYS.put(`hash:${hash}`, JSON.stringify({ ...record, hash }));
    expect401(await call(PATH, { key: secret }), WHY.liveKey, PATH, [secret]);
  });

  it("expires: expiry in the past, and expiry exactly now, are 401", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const { secret } = await makeKey({ expiresInSeconds: 5 });
    expect200(await call(PATH, { key: secret }));
    vi.setSystemTime(T0 + 4_999);
    expect200(await call(PATH, { key: secret }));
    vi.setSystemTime(T0 + 5_000);
    expect401(await call(PATH, { key: secret }), WHY.expired, PATH, [secret]);
    vi.setSystemTime(T0 + 3_600_000);
    clearIsolateCaches();
    expect401(await call(PATH, { key: secret }), WHY.expired, PATH, [secret]);
  });

  it("is refused once revoked", async () => {
    const { record, secret } = await makeKey();
    expect200(await call(PATH, { key: secret }));
    await new KeyStore(env.KEYS, env.DB).revoke(record.id, { actor: "cli" });
    expect401(await call(PATH, { key: secret }), WHY.revoked, PATH, [secret]);
  });
});

describe("rolling", () => {
  it("keeps the old key working for its grace, then refuses it; the new key works", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const old = await makeKey({ name: "pos" });
    const rolled = await new KeyStore(env.KEYS, env.DB).roll(old.record.id, 60, { actor: "cli" });
    expect(rolled?.record).toMatchObject({ name: "pos", mode: "test", replaces: old.record.id });
    expect200(await call(PATH, { key: old.secret }));
    expect200(await call(PATH, { key: rolled!.secret }));
    vi.setSystemTime(T0 + 59_999);
    expect200(await call(PATH, { key: old.secret }));
    vi.setSystemTime(T0 + 60_000);
    expect401(await call(PATH, { key: old.secret }), WHY.graceEnded, PATH, [old.secret]);
    expect200(await call(PATH, { key: rolled!.secret }));
  });

  it("with grace 0 refuses the old key at once", async () => {
    const old = await makeKey();
    expect200(await call(PATH, { key: old.secret }));
    const rolled = await new KeyStore(env.KEYS, env.DB).roll(old.record.id, 0, { actor: "cli" });
    expect401(await call(PATH, { key: old.secret }), WHY.graceEnded, PATH, [old.secret]);
    expect200(await call(PATH, { key: rolled!.secret }));
  });
});

describe("revocation by another process (the command line, another isolate)", () => {
  /** Writes the revoked record to KV directly, as the command line does, bypassing this isolate. */
  async function revokeElsewhere(record: Awaited<ReturnType<typeof makeKey>>["record"]) {
    await env.KEYS.put(`hash:${record.hash}`, JSON.stringify({ ...record, revoked_at: new Date().toISOString() }));
  }

  it("reaches a new isolate at once", async () => {
    const { record, secret } = await makeKey();
    expect200(await call(PATH, { key: secret }));
    await revokeElsewhere(record);
    clearIsolateCaches();
    expect401(await call(PATH, { key: secret }), WHY.revoked, PATH, [secret]);
  });

  it("reaches a running isolate within its key cache time (10 s)", async () => {
    expect(ISOLATE_KEY_TTL_MS).toBe(10_000);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const { record, secret } = await makeKey();
    expect200(await call(PATH, { key: secret }));
    await revokeElsewhere(record);
    vi.setSystemTime(T0 + ISOLATE_KEY_TTL_MS - 1);
    expect200(await call(PATH, { key: secret })); // still trusted: the isolate read it at T0
    vi.setSystemTime(T0 + ISOLATE_KEY_TTL_MS);
    expect401(await call(PATH, { key: secret }), WHY.revoked, PATH, [secret]);
  });

  it("reaches it within KEY_CACHE_SECONDS when the deployment sets a shorter key cache", async () => {
    const oneSecond = { KEY_CACHE_SECONDS: "1" };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const { record, secret } = await makeKey();
    expect200(await callWithEnv(oneSecond, PATH, { key: secret }));
    await revokeElsewhere(record);
    vi.setSystemTime(T0 + 999);
    expect200(await callWithEnv(oneSecond, PATH, { key: secret }));
    vi.setSystemTime(T0 + 1000);
    expect401(await callWithEnv(oneSecond, PATH, { key: secret }), WHY.revoked, PATH, [secret]);
  });

  it("reads KV on every request with KEY_CACHE_SECONDS 0", async () => {
    const { secret } = await makeKey();
    // The first request also fills the area list's cache; after it, the key is the only KV read.
    expect200(await callWithEnv({ KEY_CACHE_SECONDS: "0" }, PATH, { key: secret }));
    for (let i = 0; i < 2; i++) {
      const res = await callWithEnv({ KEY_CACHE_SECONDS: "0" }, PATH, { key: secret });
      expect200(res);
      expect(kvReads(res)).toBe(1);
    }
  });

  it("never trusts a key longer than 10 s, whatever KEY_CACHE_SECONDS says", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const { record, secret } = await makeKey();
    expect200(await callWithEnv({ KEY_CACHE_SECONDS: "3600" }, PATH, { key: secret }));
    await revokeElsewhere(record);
    vi.setSystemTime(T0 + ISOLATE_KEY_TTL_MS);
    expect401(await callWithEnv({ KEY_CACHE_SECONDS: "3600" }, PATH, { key: secret }), WHY.revoked, PATH, [secret]);
    // Whole seconds from 0 to 10; anything else is the default.
    const values = ["0", "1", "10", "11", "3600", "-1", "1.5", " 1", "", "ten", undefined];
    expect(values.map(keyCacheTtlMs)).toEqual([
      0, 1000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe("order of checks", () => {
  it("authenticates before validating parameters or bodies", async () => {
    const cases: [string, string, unknown][] = [
      ["GET", "/api/customers?count=0&skip=-1&page=2", undefined],
      ["GET", "/customers?unknown=1", undefined],
      ["GET", "/api/orders", undefined],
      ["GET", "/api/orders?phone_number=12&from_date=31-02-2026", undefined],
      ["GET", "/fetch-salesagent-by-pincode?pincode=0", undefined],
      ["GET", "/api/postalcodes?code=abc&count=1000", undefined],
      ["POST", "/api/customers/create?mobile_number=1", { company_name: 7 }],
      ["POST", "/api/customers/create", "{not json"],
      ["POST", "/customers/create", "x".repeat(20_000)],
    ];
    for (const [method, path, body] of cases) {
      expect401(await withHeader(undefined, path, method, body), WHY.missing, path);
      expect401(await withHeader(`Bearer ${newSecret("test")}`, path, method, body), WHY.unknown, path);
    }
  });

  it("authenticates before looking anything up (no 404 for an unknown phone without a key)", async () => {
    const { secret } = await makeKey();
    const path = "/api/orders?phone_number=9000000001";
    expect((await call(path, { key: secret })).status).toBe(404);
    expect401(await withHeader(undefined, path), WHY.missing, path);
  });
});

describe("every route", () => {
  const routes = apiRoutes.map(({ route }) => ({ method: route.method.toUpperCase(), path: route.path }));
  /** A concrete URL path for a route template ({id} -> 1). */
  const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "1");

  it("covers the specification's endpoints", () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const endpoint of [
      "GET /customers",
      "GET /orders",
      "POST /customers/create",
      "GET /fetch-salesagent-by-pincode",
      "GET /area",
      "GET /areas",
      "GET /postalcodes",
      "GET /salesagents",
    ]) {
      expect(listed).toContain(endpoint);
    }
  });

  it("answers 401 without a key, and with another mode's key, under /api and at the root", async () => {
    const live = newSecret("live");
    for (const { method, path } of routes) {
      for (const url of [`${API_PREFIX}${concrete(path)}`, concrete(path)]) {
        const res = await withHeader(undefined, url, method);
        expect({ route: `${method} ${url}`, status: res.status }).toEqual({ route: `${method} ${url}`, status: 401 });
        expect401(res, WHY.missing, url);
        expect401(await withHeader(`Bearer ${live}`, url, method), WHY.liveKey, url);
        if (method === "GET") {
          const head = await withHeader(undefined, url, "HEAD");
          expect({ route: `HEAD ${url}`, status: head.status }).toEqual({ route: `HEAD ${url}`, status: 401 });
        }
      }
    }
  });

  it("is an API route (so authenticated) unless it is a documented surface outside the API", () => {
    // The app's own routing table: a route mounted anywhere else than apiRoutes shows up here.
    // The field app's files (/app/) are public: the page and its code, no data (test/fieldapp/fieldapp.test.ts).
    const outsideApi = [/^\/openapi\.json$/, /^\/docs(\/|$)/, /^\/dashboard(\/|$)/, /^\/admin(\/|$)/, /^\/app(\/|$)/];
    // The public routes answer without a key: GET /healthz reads no data (test/health/health.test.ts); the
    // enrollment code is POST /enroll's credential (test/enroll/enroll.test.ts).
    const open = new Set(
      publicRoutes.flatMap(({ route }) => [
        `${route.method.toUpperCase()} ${API_PREFIX}${route.path}`,
        `${route.method.toUpperCase()} ${route.path}`,
      ]),
    );
    const api = new Set(
      routes.flatMap(({ method, path }) => {
        const hono = path.replace(/\{([^}]+)\}/g, ":$1");
        return [`${method} ${API_PREFIX}${hono}`, `${method} ${hono}`];
      }),
    );
    const stray = app.routes
      .filter((r) => !(r.method === "ALL" && /\*/.test(r.path))) // global middleware
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !api.has(r) && !open.has(r) && !outsideApi.some((p) => p.test(r.slice(r.indexOf(" ") + 1))));
    expect(stray).toEqual([]);
    expect([...open].sort()).toEqual([
      "GET /api/enroll",
      "GET /api/healthz",
      "GET /enroll",
      "GET /healthz",
      "POST /api/enroll",
      "POST /enroll",
    ]);
    expect(app.routes.some((r) => r.path === `${API_PREFIX}/customers`)).toBe(true);
  });
});
