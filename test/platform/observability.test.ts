// What operators and browsers see around every answer: the request id, the one JSON log line,
// secure headers, CORS, and the caching rules for authenticated answers.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { call, expectErrorAnswer } from "../helpers/http.ts";
import { callWithEnv, downD1, downRateLimiter, garbageD1 } from "../helpers/faults.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { captureConsole, jsonLinesOf, type LogLine } from "../helpers/logs.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let key: string;
let keyId: string;
beforeAll(async () => {
  const made = await makeKey({ name: "observability" });
  key = made.secret;
  keyId = made.record.id;
});

describe("X-Request-Id", () => {
  it("echoes a sane caller value, on success and on errors", async () => {
    for (const [path, options, status] of [
      ["/api/customers", { key }, 200],
      ["/api/customers?count=0", { key }, 422],
      ["/api/customers", {}, 401],
      ["/api/nowhere", { key }, 404],
    ] as const) {
      const res = await call(path, { ...options, headers: { "X-Request-Id": "req_ABC-123=xyz" } });
      expect(res.status).toBe(status);
      expect(res.headers.get("X-Request-Id")).toBe("req_ABC-123=xyz");
    }
  });

  it("makes a new one when the caller sends none, one too long, or one with other characters", async () => {
    const seen = new Set<string>();
    for (const sent of [undefined, "a".repeat(256), "has space", "<script>", "semi;colon", "ünïcode", "line\tbreak"]) {
      const res = await call("/api/customers", { key, headers: sent === undefined ? {} : { "X-Request-Id": sent } });
      expect(res.status).toBe(200);
      const id = res.headers.get("X-Request-Id")!;
      expect(id).toMatch(UUID);
      seen.add(id);
    }
    expect(seen.size).toBe(7);
  });

  it("accepts 255 characters", async () => {
    const long = "b".repeat(255);
    const res = await call("/api/customers", { key, headers: { "X-Request-Id": long } });
    expect(res.headers.get("X-Request-Id")).toBe(long);
  });
});

describe("the request log", () => {
  // Every line written, whichever console method wrote it.
  let written: LogLine[];
  const lines = () => written.map((l) => l.text);
  beforeEach(() => {
    written = captureConsole();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The request-log lines of one request (by its id); anything else it logged too. */
  function linesOf(requestId: string) {
    const mine = lines().filter((l) => l.includes(requestId));
    const parsed = mine.map((l) => JSON.parse(l) as Record<string, unknown>);
    return { mine, requestLines: parsed.filter((p) => "duration_ms" in p) };
  }

  it("writes one JSON line a request with id, method, path, status, duration, key id, D1 round trips and rows read", async () => {
    const res = await call("/api/customers?count=5", { key, headers: { "X-Request-Id": "log-line-1" } });
    expect(res.status).toBe(200);
    const { requestLines } = linesOf("log-line-1");
    expect(requestLines).toHaveLength(1);
    const line = requestLines[0]!;
    // Server-Timing counts the same round trips, from the same wrapped binding.
    const trips = Number(/d1;[^,]*desc="(\d+) round trips"/.exec(res.headers.get("Server-Timing") ?? "")?.[1]);
    expect(trips).toBeGreaterThan(0);
    const rowsRead = rowsReadOf(res);
    expect(rowsRead).toBeGreaterThan(0);
    expect(line).toEqual({
      request_id: "log-line-1",
      method: "GET",
      path: "/api/customers",
      status: 200,
      duration_ms: expect.any(Number),
      key_id: keyId,
      d1_round_trips: trips,
      d1_rows_read: rowsRead,
      kv_reads: expect.any(Number),
      // Local D1 reports that the primary answered; a deployed one may add served_by_region.
      served_by_primary: true,
    });
    expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
  });

  it("logs failures too, without a key id when none authenticated", async () => {
    const res = await call("/customers?count=1", { headers: { "X-Request-Id": "log-line-401" } });
    expect(res.status).toBe(401);
    expect(linesOf("log-line-401").requestLines).toEqual([
      {
        request_id: "log-line-401",
        method: "GET",
        path: "/customers",
        status: 401,
        duration_ms: expect.any(Number),
        key_id: null,
        d1_round_trips: 0,
        d1_rows_read: 0,
        kv_reads: 0,
      },
    ]);
  });

  it("never logs the Authorization header or a secret, even a wrong or pasted one", async () => {
    const wrong = `${key.slice(0, -4)}WXYZ`;
    await call("/api/customers", { key, headers: { "X-Request-Id": "secret-1" } });
    await call("/api/customers", { key: wrong, headers: { "X-Request-Id": "secret-2" } });
    await call(`/api/customers/${key}`, { key, headers: { "X-Request-Id": "secret-3" } });
    await call(`/api/customers?token=${key}`, { key, headers: { "X-Request-Id": "secret-4" } });
    const all = lines().join("\n");
    expect(lines().length).toBeGreaterThanOrEqual(4);
    expect(all).not.toContain(key);
    expect(all).not.toContain(wrong);
    expect(all).not.toContain(key.slice(8));
    expect(all).not.toMatch(/bearer/i);
    expect(linesOf("secret-3").requestLines[0]!.path).toBe("/api/customers/sk_test_[redacted]");
    expect(linesOf("secret-4").requestLines[0]!.path).toBe("/api/customers");
  });

  it("cuts a very long path short", async () => {
    const res = await call(`/api/${"x".repeat(5000)}`, { key, headers: { "X-Request-Id": "long-path" } });
    expect(res.status).toBe(404);
    const path = linesOf("long-path").requestLines[0]!.path as string;
    expect(path.length).toBeLessThanOrEqual(513);
    expect(path.startsWith("/api/xxx")).toBe(true);
  });
});

describe("log levels: the console method of each line", () => {
  // Workers Logs and `wrangler tail` take a line's level from the console method that wrote it.
  let written: LogLine[];
  beforeEach(() => {
    written = captureConsole();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** [console method, the line's status or event] for each line of one request. */
  const levels = (requestId: string) =>
    jsonLinesOf(written, requestId).map(({ method, line }) => [
      method,
      "duration_ms" in line ? line.status : (line.event ?? line.error),
    ]);

  /** Sends one request with these bindings replaced and the key, under the request id; its status and levels. */
  async function statusAndLevels(requestId: string, overrides: Partial<Cloudflare.Env>, path: string) {
    const res = await callWithEnv(overrides, path, { key, headers: { "X-Request-Id": requestId } });
    return { status: res.status, levels: levels(requestId) };
  }

  it("writes the request line of a 2xx, 3xx or 4xx with console.log", async () => {
    const cases = [
      ["lvl-200", "/api/customers?count=1", { key }, 200],
      ["lvl-401", "/api/customers", {}, 401],
      ["lvl-404", "/api/nowhere", { key }, 404],
      ["lvl-405", "/api/customers", { key, method: "DELETE" }, 405],
      ["lvl-422", "/api/customers?count=0", { key }, 422],
    ] as const;
    for (const [id, path, options, status] of cases) {
      const res = await call(path, { ...options, headers: { "X-Request-Id": id } });
      expect(res.status).toBe(status);
      expect(levels(id), id).toEqual([["log", status]]);
    }
    expect(written.filter((l) => l.method !== "log")).toEqual([]);
  });

  it("writes a 5xx's request line and its error line with console.error, never console.log", async () => {
    expect(await statusAndLevels("lvl-500", { DB: garbageD1() }, "/api/customers")).toEqual({
      status: 500,
      levels: [
        ["error", expect.any(String)],
        ["error", 500],
      ],
    });
    expect(await statusAndLevels("lvl-503", { DB: downD1() }, "/api/customers")).toEqual({
      status: 503,
      levels: [
        ["error", expect.stringContaining("DependencyError")],
        ["error", 503],
      ],
    });
    const misconfigured = await callWithEnv({ MODE: "staging" }, "/api/healthz", {
      headers: { "X-Request-Id": "lvl-mode" },
    });
    expect(misconfigured.status).toBe(500);
    expect(jsonLinesOf(written, "lvl-mode")).toEqual([
      { method: "error", line: { level: "error", request_id: "lvl-mode", error: "MODE must be 'test' or 'live'" } },
      { method: "error", line: { level: "error", request_id: "lvl-mode", error: "ApiError", status: 500 } },
      { method: "error", line: expect.objectContaining({ request_id: "lvl-mode", path: "/api/healthz", status: 500 }) },
    ]);
  });

  it("writes a warning with console.warn, and the request it came with stays info", async () => {
    expect(await statusAndLevels("lvl-warn", { RATE_LIMITER: downRateLimiter() }, "/api/customers?count=1")).toEqual({
      status: 200,
      levels: [
        ["warn", "rate_limiter_unavailable"],
        ["log", 200],
      ],
    });
  });
});

describe("secure headers", () => {
  // OWASP's REST Security Cheat Sheet set on the API; the page-only headers on the HTML pages.
  const api = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "strict-transport-security": "max-age=15552000; includeSubDomains",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  };
  const pageOnly = [
    "referrer-policy",
    "cross-origin-resource-policy",
    "cross-origin-opener-policy",
    "origin-agent-cluster",
    "x-xss-protection",
    "x-dns-prefetch-control",
    "x-download-options",
    "x-permitted-cross-domain-policies",
  ];

  it("are the API set on answers and on errors, and nothing that only a rendered page needs", async () => {
    for (const [path, options] of [
      ["/api/customers", { key }],
      ["/api/area", { key }],
      ["/customers?count=0", { key }],
      ["/api/customers", {}],
      ["/nowhere", {}],
      ["/openapi.json", {}],
    ] as const) {
      const res = await call(path, options);
      for (const [name, value] of Object.entries(api))
        expect([path, name, res.headers.get(name)]).toEqual([path, name, value]);
      for (const name of pageOnly) expect([path, name, res.headers.get(name)]).toEqual([path, name, null]);
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("are hono's whole default set on /docs, with the page's own Content-Security-Policy", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(
      Object.fromEntries(
        [...pageOnly, "x-frame-options", "x-content-type-options"].map((n) => [n, res.headers.get(n)]),
      ),
    ).toEqual({
      "referrer-policy": "no-referrer",
      "cross-origin-resource-policy": "same-origin",
      "cross-origin-opener-policy": "same-origin",
      "origin-agent-cluster": "?1",
      "x-xss-protection": "0",
      "x-dns-prefetch-control": "off",
      "x-download-options": "noopen",
      "x-permitted-cross-domain-policies": "none",
      "x-frame-options": "SAMEORIGIN",
      "x-content-type-options": "nosniff",
    });
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'self';/);
  });
});

describe("CORS", () => {
  const origins = { CORS_ORIGINS: "https://agents.example.com, https://admin.example.com" };

  it("allows a configured origin and exposes the headers clients read", async () => {
    const res = await callWithEnv(origins, "/api/customers", { key, headers: { Origin: "https://admin.example.com" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://admin.example.com");
    expect(res.headers.get("Vary")).toContain("Origin");
    const exposed = (res.headers.get("Access-Control-Expose-Headers") ?? "").split(/,\s*/);
    expect(exposed.sort()).toEqual(
      [
        "ETag",
        "Idempotent-Replayed",
        "Key-Rotation",
        "Retry-After",
        "Server-Timing",
        "X-D1-Bookmark",
        "X-Request-Id",
      ].sort(),
    );
  });

  it("answers a preflight from a configured origin without a key", async () => {
    const res = await callWithEnv(origins, "/api/customers", {
      method: "OPTIONS",
      headers: {
        Origin: "https://agents.example.com",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://agents.example.com");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("authorization");
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("GET");
  });

  it("gives no CORS grant to another origin, nor to anyone when none is configured", async () => {
    for (const [overrides, origin] of [
      [origins, "https://evil.example.com"],
      [origins, "https://agents.example.com.evil.net"],
      [origins, "null"],
      [{ CORS_ORIGINS: "" }, "https://agents.example.com"],
      [{ CORS_ORIGINS: "" }, "null"],
    ] as const) {
      const res = await callWithEnv(overrides, "/api/customers", { key, headers: { Origin: origin } });
      expect(res.status).toBe(200);
      expect([origin, res.headers.get("Access-Control-Allow-Origin")]).toEqual([origin, null]);
      const preflight = await callWithEnv(overrides, "/api/customers", {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
      });
      expect([origin, preflight.headers.get("Access-Control-Allow-Origin")]).toEqual([origin, null]);
    }
  });
});

describe("Cache-Control of authenticated answers", () => {
  it("is no-store on data and on errors given to a credential", async () => {
    for (const [path, options, status] of [
      ["/api/customers", { key }, 200],
      ["/salesagents", { key }, 200],
      ["/api/customers?count=0", { key }, 422],
      ["/api/customers", { key: `${key}0` }, 401],
      ["/api/nowhere", { key }, 404],
    ] as const) {
      const res = await call(path, options);
      expect([path, res.status, res.headers.get("Cache-Control")]).toEqual([path, status, "no-store"]);
    }
  });

  it("keeps the lookups' own private revalidation rule, on 200 and on 304", async () => {
    clearIsolateCaches();
    const first = await call("/api/areas", { key });
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("private, no-cache");
    const again = await call("/api/areas", { key, headers: { "If-None-Match": first.headers.get("ETag")! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("Cache-Control")).toBe("private, no-cache");
  });

  it("the 401 of a request without credentials is an envelope too", async () => {
    const res = await call("/api/areas");
    expectErrorAnswer(
      res,
      401,
      "AUTHENTICATION_ERROR",
      "Missing credentials: send the header 'Authorization: Bearer <API key>'",
      "/api/areas",
    );
    expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
  });
});
