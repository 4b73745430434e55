// Key scopes (docs/specification.md section 2, "Restricted keys"): `read` for every GET endpoint,
// `write` for POST /customers/create; a key without the scope an endpoint needs gets 403
// PERMISSION_ERROR naming it, after the limit on failed authentication per address (429),
// authentication (401) and the rate limit (429), before the endpoint's own answers (422 and the rest).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { call, errorEnvelope, validationEnvelope, type CallResult } from "../helpers/http.ts";
import { callWithEnv } from "../helpers/faults.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { createBody, createdCustomer } from "../fixtures/create-body.ts";
import { expectedCustomer } from "../fixtures/expected.ts";

const CREATE = "/api/customers/create";

/** Every GET endpoint, with the name its 403 gives it and the path it answers at. */
const GETS = [
  ["GET /customers", "/api/customers?count=2"],
  ["GET /orders", "/api/orders?phone_number=9820000001&count=1"],
  ["GET /fetch-salesagent-by-pincode", "/api/fetch-salesagent-by-pincode?pincode=400069"],
  ["GET /area", "/api/area"],
  ["GET /areas", "/api/areas"],
  ["GET /postalcodes", "/api/postalcodes?count=2"],
  ["GET /salesagents", "/api/salesagents?count=2"],
  ["GET /customers", "/customers?count=2"],
] as const;

const pathOf = (url: string) => url.split("?")[0]!;

function forbidden(scope: "read" | "write", endpoint: string, path: string) {
  return errorEnvelope(
    403,
    "PERMISSION_ERROR",
    `This API key lacks the '${scope}' scope, which ${endpoint} needs`,
    path,
  );
}

function expectForbidden(res: CallResult, scope: "read" | "write", endpoint: string, path: string) {
  expect({ status: res.status, type: res.headers.get("Content-Type"), body: res.body }).toEqual({
    status: 403,
    type: expect.stringMatching(/^application\/json/),
    body: forbidden(scope, endpoint, path),
  });
}

let readOnly: string;
let writeOnly: string;
let both: string;
let mobile = 9300000000;
const freshMobile = () => String(++mobile);

beforeAll(async () => {
  await seedFixture();
  readOnly = (await makeKey({ name: "read only", scopes: ["read"] })).secret;
  writeOnly = (await makeKey({ name: "write only", scopes: ["write"] })).secret;
  both = (await makeKey({ name: "both", scopes: ["read", "write"] })).secret;
});
beforeEach(() => clearIsolateCaches());

async function customerCount(key: string): Promise<number> {
  return (await call("/api/customers?count=1", { key })).body.data.pagination.total;
}

describe("a read-only key", () => {
  it.each(GETS)("%s (%s): 200", async (_endpoint, url) => {
    const res = await call(url, { key: readOnly });
    expect(res.status).toBe(200);
  });

  it("POST /customers/create: 403 naming the write scope, nothing created", async () => {
    const before = await customerCount(readOnly);
    const res = await call(CREATE, { key: readOnly, method: "POST", body: createBody(freshMobile()) });
    expectForbidden(res, "write", "POST /customers/create", CREATE);
    expect(await customerCount(readOnly)).toBe(before);
  });

  it("POST /customers/create with a body that breaks every rule: still 403 (before the 422)", async () => {
    const res = await call(CREATE, { key: readOnly, method: "POST", body: { mobile_number: "12", area_id: "x" } });
    expectForbidden(res, "write", "POST /customers/create", CREATE);
  });

  it("POST /customers/create at the root: 403, the same description", async () => {
    const res = await call("/customers/create", { key: readOnly, method: "POST", body: createBody(freshMobile()) });
    expectForbidden(res, "write", "POST /customers/create", "/customers/create");
  });
});

describe("a write-only key", () => {
  it.each(GETS)("%s (%s): 403 naming the read scope", async (endpoint, url) => {
    expectForbidden(await call(url, { key: writeOnly }), "read", endpoint, pathOf(url));
  });

  it.each([
    ["GET /customers", "/api/customers?count=0&skip=-1&page=1"],
    ["GET /orders", "/api/orders"],
    ["GET /orders", "/api/orders?phone_number=12&from_date=nope"],
    ["GET /postalcodes", "/api/postalcodes?count=1000"],
    ["GET /salesagents", "/api/salesagents?cursor=not-a-cursor&skip=2"],
    ["GET /fetch-salesagent-by-pincode", "/api/fetch-salesagent-by-pincode"],
  ])("%s with bad parameters (%s): 403, before the 422", async (endpoint, url) => {
    expectForbidden(await call(url, { key: writeOnly }), "read", endpoint, pathOf(url));
  });

  it("POST /customers/create: 201", async () => {
    const body = createBody(freshMobile());
    const res = await call(CREATE, { key: writeOnly, method: "POST", body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: createdCustomer(res.body.data.id, body) });
  });
});

describe("a key with both scopes (and a key made without naming any)", () => {
  it.each(GETS)("%s (%s): 200, as for the default key", async (_endpoint, url) => {
    const { secret: defaults } = await makeKey({ name: "defaults" });
    const [withBoth, withDefaults] = [await call(url, { key: both }), await call(url, { key: defaults })];
    expect(withBoth.status).toBe(200);
    expect(withBoth.body).toEqual(withDefaults.body);
  });

  it("GET /customers answers the fixture's customers", async () => {
    const res = await call("/api/customers?count=2", { key: both });
    expect(res.body.data.customers).toEqual([expectedCustomer(1), expectedCustomer(2)]);
  });

  it("POST /customers/create: 201; with a broken body, the endpoint's own 422", async () => {
    const body = createBody(freshMobile());
    const created = await call(CREATE, { key: both, method: "POST", body });
    expect(created.status).toBe(201);
    const broken = await call(CREATE, { key: both, method: "POST", body: createBody(freshMobile(), { area_id: "x" }) });
    expect(broken.status).toBe(422);
    expect(broken.body).toEqual(
      validationEnvelope(CREATE, [{ field: "area_id", message: "must be a positive integer" }]),
    );
  });
});

describe("order of the checks: 429 (failed authentication from the address), 401, 429, 403, then the endpoint's own", () => {
  it("an invalid key is a 401 whatever it asks for (no 403)", async () => {
    for (const [method, url] of [
      ["POST", CREATE],
      ["GET", "/api/customers"],
    ] as const) {
      const res = await call(url, { key: `${readOnly}x`, method, body: method === "POST" ? {} : undefined });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid API key: no such key", url));
    }
  });

  it("from an address with 300 failed authentications in the last minute, an invalid key is a 429 (no 401); a key that authenticated within the minute gets its 403 or 422", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.77" };
    expect((await call("/api/customers?count=1", { key: readOnly, headers })).status).toBe(200);
    const failures = await Promise.all(Array.from({ length: 300 }, () => callWithEnv({}, "/api/area", { headers })));
    expect(failures.map((r) => r.status)).toEqual(Array<number>(300).fill(401));

    const limited = errorEnvelope(
      429,
      "RATE_LIMITED",
      "Too many requests with a missing or invalid API key from this address; retry later",
      CREATE,
    );
    for (const key of [`${readOnly}x`, writeOnly, undefined]) {
      const res = await call(CREATE, { key, method: "POST", body: {}, headers });
      expect({ status: res.status, body: res.body, wwwAuthenticate: res.headers.get("WWW-Authenticate") }).toEqual({
        status: 429,
        body: limited,
        wwwAuthenticate: null,
      });
    }
    const forbiddenRes = await call(CREATE, { key: readOnly, method: "POST", body: {}, headers });
    expectForbidden(forbiddenRes, "write", "POST /customers/create", CREATE);
    const invalid = await call("/api/customers?count=0", { key: readOnly, headers });
    expect({ status: invalid.status, body: invalid.body }).toEqual({
      status: 422,
      body: validationEnvelope("/api/customers", [{ field: "count", message: "must be an integer between 1 and 100" }]),
    });
  });

  describe("the rate limit", () => {
    const LIMIT = 600;
    const minute = () => Math.floor(Date.now() / 60_000);
    beforeAll(() => {
      // One log line a request: hundreds of them would bury the test output.
      vi.spyOn(console, "log").mockImplementation(() => undefined);
    });
    afterAll(() => {
      vi.restoreAllMocks();
    });

    it("a write-only key's 403s spend its budget, and once it is spent a GET is a 429, not a 403", async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const { secret } = await makeKey({ name: `write-only burst ${attempt}`, scopes: ["write"] });
        const start = minute();
        const statuses: Record<number, number> = {};
        for (let sent = 0; sent < LIMIT; sent += 50) {
          const batch = await Promise.all(
            Array.from({ length: 50 }, () => callWithEnv({}, "/api/customers?count=0", { key: secret })),
          );
          for (const r of batch) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
        const probe = await call("/api/customers", { key: secret });
        if (minute() !== start) continue;
        expect(statuses).toEqual({ 403: LIMIT });
        expect(probe.status).toBe(429);
        expect(probe.headers.get("Retry-After")).toBe("60");
        expect(probe.body).toEqual(
          errorEnvelope(429, "RATE_LIMITED", "Too many requests for this key; retry later", "/api/customers"),
        );
        return;
      }
      throw new Error("three bursts in a row straddled a minute boundary");
    }, 120_000);
  });
});
