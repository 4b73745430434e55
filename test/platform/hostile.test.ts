// Property-based tests (fast-check): random and hostile input to every endpoint never gives a 5xx,
// and every answer that is not a success is the error envelope with status_code equal to the
// status. Every answer also passes the contract check (callVia, through callWithEnv).
// Requests go through callWithEnv with the limiter off: the same app and real bindings, fast, and
// with no 429 hiding what a request would have got.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encodeCursor } from "../../src/platform/paging/cursor.ts";
import { callWithEnv } from "../helpers/faults.ts";
import type { CallOptions, CallResult } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { createBody, REQUIRED_CREATE_PARAMETERS } from "../fixtures/create-body.ts";

const RUNS = 40;
const UNLIMITED = { RATE_LIMIT_PER_MINUTE: "0" };

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey({ name: "hostile" })).secret;
  // One log line a request; hundreds of them would bury the test output.
  vi.spyOn(console, "log").mockImplementation(() => undefined);
});
afterAll(() => {
  vi.restoreAllMocks();
});

// ---- values ---------------------------------------------------------------------------------

const SQL = [
  "' OR '1'='1",
  "1; DROP TABLE customers; --",
  "1 UNION SELECT secret FROM api_keys",
  '" OR ""="',
  "%' --",
  "'); DELETE FROM customer_addresses; --",
  "1/*",
  "\\",
];
const NUMERIC_EDGES = [
  "9".repeat(400),
  "18446744073709551616",
  "9007199254740993",
  "-1",
  "-0",
  "0",
  "1.5",
  "1e3",
  "1e309",
  "0x10",
  "Infinity",
  "NaN",
  " 1",
  "1 ",
  "+1",
  "１２", // full-width digits
  "٣", // Arabic-Indic digit
  "00000000000000000001",
];
const ODD = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "😀🇮🇳",
  "\u202Eevil",
  "ß",
  "İ",
  "\r\n",
  "<script>alert(1)</script>",
  "${jndi:x}",
];
const DATES = [
  "31-02-2026",
  "2026-02-30",
  "29-02-2024",
  "01-13-2026",
  "2026-1-1",
  "01/01/2026",
  "99-99-9999",
  "0000-00-00",
  "31-12-9999",
];
const PHONES = [
  "+91 98200 00001",
  "098200 00002",
  "9820000003",
  "(982) 000-0001",
  "+9198200000011",
  "91 9820000001",
  "+91-98200.00001",
  "0091 98200 00001",
];

/** A string that a client, a fuzzer or an attacker might send. */
const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SQL, ...NUMERIC_EDGES, ...ODD, ...DATES, ...PHONES) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 200 }).map(String) },
  { weight: 1, arbitrary: fc.nat({ max: 12_000 }).map((n) => "x".repeat(n)) },
);

/** Raw bytes for a query string: what encodeURIComponent would never make. */
const RAW_QUERY_FRAGMENTS = [
  "%",
  "%zz",
  "%E0%A4",
  "%ED%A0%80",
  "%C0%AF",
  "%00",
  "%FF%FE",
  "+",
  "%2B",
  "&",
  "=",
  "==",
  "%26",
  "%3D",
  "#frag",
  ";",
  "%0D%0A",
];

type QueryValue = { raw: string } | string;
const queryValue: fc.Arbitrary<QueryValue> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERY_FRAGMENTS).map((raw) => ({ raw })) },
);

/** Lone surrogates cannot be percent-encoded; send them as the bytes of U+FFFD's neighbour. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
  }
}

/**
 * A query string over the endpoint's own parameter names (each possibly repeated, as an array
 * for a scalar) and some names it does not take.
 */
function queryOf(names: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        `${names[0]}[]`,
        `${names[0]}[0]`,
        "",
        "a".repeat(300),
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  return fc
    .array(fc.tuple(name, queryValue), { maxLength: 8 })
    .map((pairs) => pairs.map(([n, v]) => `${encode(n)}=${typeof v === "string" ? encode(v) : v.raw}`).join("&"));
}

// ---- the property ---------------------------------------------------------------------------

function expectWellFormed(res: CallResult, what: string) {
  const context = `${what} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 200 && res.status < 300) return;
  if (res.status === 304) return;
  // A HEAD answer has the status and headers of the GET, and no body.
  if (what.startsWith("HEAD ")) return expect(res.text, context).toBe("");
  expect(res.headers.get("Content-Type") ?? "", context).toMatch(/^application\/json/);
  const error = res.body?.error;
  expect(error, context).toBeTypeOf("object");
  expect(error.status_code, context).toBe(res.status);
  expect(error.code, context).toMatch(/^[A-Z_]+$/);
  expect(error.description, context).toBeTypeOf("string");
  expect(error.source, context).toMatch(/^http:\/\/127\.0\.0\.1:8787\//);
  expect(res.text, context).not.toMatch(/\n\s+at\s|D1_ERROR|SQLITE|sk_(test|live)_[A-Za-z0-9]{20}/);
}

async function send(path: string, options: CallOptions = {}): Promise<CallResult> {
  const res = await callWithEnv(UNLIMITED, path, { key, ...options });
  expectWellFormed(res, `${options.method ?? "GET"} ${path}`);
  return res;
}

const PAGING = ["count", "skip", "page", "cursor"] as const;
const GET_ENDPOINTS: [string, readonly string[]][] = [
  ["/api/customers", PAGING],
  ["/customers", PAGING],
  ["/api/orders", ["phone_number", "from_date", "to_date", ...PAGING]],
  ["/orders", ["phone_number", "from_date", "to_date", ...PAGING]],
  ["/api/fetch-salesagent-by-pincode", ["pincode"]],
  ["/fetch-salesagent-by-pincode", ["pincode"]],
  ["/api/area", ["id", "name"]],
  ["/areas", ["city_id"]],
  ["/api/postalcodes", ["code", ...PAGING]],
  ["/api/salesagents", PAGING],
];

describe("query parameters of every GET endpoint", () => {
  for (const [path, names] of GET_ENDPOINTS) {
    it(`${path}: never 5xx, every error the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(queryOf(names), fc.boolean(), async (query, cold) => {
          if (cold) clearIsolateCaches();
          await send(query ? `${path}?${query}` : path);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it("/api/orders with a known phone number and hostile dates and paging", async () => {
    const dates = fc.record(
      {
        from_date: fc.oneof(fc.constantFrom(...DATES), hostileString),
        to_date: fc.oneof(fc.constantFrom(...DATES), hostileString),
        count: fc.oneof(fc.constantFrom(...NUMERIC_EDGES), hostileString),
        page: fc.oneof(fc.constantFrom(...NUMERIC_EDGES), hostileString),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PHONES), dates, async (phone, params) => {
        const query = new URLSearchParams({ phone_number: phone });
        for (const [name, value] of Object.entries(params))
          query.append(name, value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
        await send(`/api/orders?${query}`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("hand-made cursors", () => {
  // They decode, so they reach the database: any sort key, page and count must still never 5xx.
  const sortKey = fc.record({
    id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    date: fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });
  it("/api/customers and /api/orders with any decodable cursor", async () => {
    await fc.assert(
      fc.asyncProperty(
        sortKey,
        fc.integer({ min: 2, max: 999_999_999_999_999 }),
        fc.integer({ min: 1, max: 100 }),
        async (key_, page, count) => {
          const customers = encodeCursor({
            listing: "customers",
            scope: {},
            count,
            agent: null,
            page,
            after: { id: key_.id },
          });
          await send(`/api/customers?count=${count}&cursor=${customers}`);
          const scope = { phone: "9820000001", from: null, to: null };
          const orders = encodeCursor({ listing: "orders", scope, count, agent: null, page, after: key_ });
          await send(`/api/orders?phone_number=9820000001&count=${count}&cursor=${orders}`);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("headers", () => {
  // What a header can carry: no control characters but tab; beyond ASCII, workerd warns on each
  // value (it sends UTF-8), so those characters become "?".
  const headerValue = hostileString.map((s) =>
    [...s]
      .map((ch) => {
        const code = ch.codePointAt(0)!;
        return (code < 0x20 && code !== 0x09) || code === 0x7f ? "" : code > 0x7e ? "?" : ch;
      })
      .join(""),
  );

  it("any Authorization header is 401 unless it is a valid key, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          headerValue,
          headerValue.map((s) => `Bearer ${s}`),
          headerValue.map((s) => `Bearer sk_test_${s}`),
          fc.constantFrom(
            `bearer  ${key}`,
            `Bearer\t${key}`,
            `Basic ${key}`,
            `Bearer ${key}\u000b`,
            `Bearer ${key.toUpperCase()}`,
          ),
        ),
        async (authorization) => {
          const res = await callWithEnv(UNLIMITED, "/api/customers", { headers: { Authorization: authorization } });
          expectWellFormed(res, `Authorization: ${authorization}`);
          expect(res.status).toBe(401);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("hostile X-Request-Id, X-D1-Bookmark, If-None-Match and Idempotency-Key never give a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { id: headerValue, bookmark: headerValue, etag: headerValue, idem: headerValue },
          { requiredKeys: [] },
        ),
        fc.constantFrom("/api/customers", "/api/area", "/api/orders?phone_number=9820000001", "/api/customers/create"),
        async (h, path) => {
          const headers: Record<string, string> = {};
          if (h.id !== undefined) headers["X-Request-Id"] = h.id;
          if (h.bookmark !== undefined) headers["X-D1-Bookmark"] = h.bookmark;
          if (h.etag !== undefined) headers["If-None-Match"] = h.etag;
          if (h.idem !== undefined) headers["Idempotency-Key"] = h.idem;
          const method = path.endsWith("/create") ? "POST" : "GET";
          await send(path, { method, headers, body: method === "POST" ? {} : undefined });
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/** Path segments: the service's own, dot segments written plainly and encoded, broken escapes. */
const PATH_SEGMENTS = [
  "api",
  "customers",
  "orders",
  "create",
  "area",
  "areas",
  "..",
  ".",
  "%2e%2e",
  "%00",
  "%",
  "%zz",
  "[x]",
  "a|b^c",
  "openapi.json",
  "__proto__",
];

describe("paths and methods", () => {
  it("any path and method is answered in the envelope, never 5xx", async () => {
    const segment = fc.oneof(fc.constantFrom(...PATH_SEGMENTS), fc.string({ maxLength: 12 }).map(encode));
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"),
        async (segments, method) => {
          const path = `/${segments.join("/")}`;
          await send(path, {
            method,
            body: method === "POST" || method === "PUT" || method === "PATCH" ? "{}" : undefined,
          });
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});

// ---- POST /customers/create -----------------------------------------------------------------

const CREATE_NAMES = [...REQUIRED_CREATE_PARAMETERS, "gstin"] as const;

/** A valid create body but for its mobile number, which the fuzzing gives. */
const { mobile_number: _fuzzed, ...VALID }: Record<string, unknown> = createBody("", {
  company_name: "Hostile Co",
  contactpersons_name: "Tester",
  address: "1 Fuzz Lane",
  gst_treatment: "Registered",
  gstin: "27AAPFU0939F1ZV",
});

/** A JSON value for a body member: scalars of every type, arrays and objects where scalars go. */
const jsonMember: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -1, 1.5, 2 ** 53, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-300),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, fc.integer()), { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom("a", "__proto__", "constructor", "toString"),
      fc.oneof(hostileString, fc.integer()),
      { maxKeys: 3 },
    ),
  },
);

/** Raw JSON number literals that JSON.stringify never writes. */
/** Bodies that are not a JSON object: empty, other JSON values, broken JSON, deep nesting, prototype keys. */
const ODD_BODIES = [
  "",
  " ",
  "null",
  "[]",
  "[1,2]",
  '"text"',
  "42",
  "{",
  '{"a":}',
  "{'single':'quotes'}",
  '{"company_name":"x"}garbage',
  "\u0000",
  "\uFEFF{}",
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
  `{"a":${"[".repeat(3000)}${"]".repeat(3000)}}`,
  '{"__proto__":{"company_name":"polluted","isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

const RAW_NUMBERS = ["1e400", "-1e400", "123456789012345678901234567890", "1.0000000000000001", "-0", "0.1e1", "1E2"];

/** A body text: members from the valid set, overridden or joined by hostile ones, as raw JSON. */
const createBodyText = fc
  .record({
    base: fc.subarray([...Object.keys(VALID)]),
    hostile: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...CREATE_NAMES),
          fc.constantFrom("__proto__", "constructor", "prototype", "hasOwnProperty", "mobile_number"),
        ),
        fc.oneof(
          { weight: 5, arbitrary: jsonMember.map((v) => JSON.stringify(v) ?? "null") },
          { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS) },
        ),
      ),
      { maxLength: 5 },
    ),
    mobile: fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }),
  })
  .map(({ base, hostile, mobile }) => {
    const members = base.map((name) => `${JSON.stringify(name)}:${JSON.stringify(VALID[name])}`);
    members.push(`"mobile_number":${JSON.stringify(String(mobile))}`);
    // Duplicate names are valid JSON: the last one wins.
    for (const [name, raw] of hostile) members.push(`${JSON.stringify(name)}:${raw}`);
    return `{${members.join(",")}}`;
  });

describe("POST /customers/create", () => {
  const created: number[] = [];

  it("JSON bodies with hostile members: never 5xx, every error the envelope, a 201 is a whole customer", async () => {
    await fc.assert(
      fc.asyncProperty(createBodyText, async (text) => {
        const res = await send("/api/customers/create", {
          method: "POST",
          body: text,
          headers: { "Content-Type": "application/json" },
        });
        if (res.status === 201) {
          created.push(res.body.data.id);
          expect(res.body.data).toMatchObject({ status: "Active", approval: "accepted" });
        } else {
          expect([400, 409, 413, 422], `${text} -> ${res.status}`).toContain(res.status);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("malformed and odd bodies: 400 or 422 in the envelope, never 5xx", async () => {
    const bodies = fc.oneof(
      fc.constantFrom(...ODD_BODIES),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    const types = fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "multipart/form-data; boundary=xyz",
      "text/plain",
      "application/vnd.api+json",
      "",
    );
    await fc.assert(
      fc.asyncProperty(bodies, types, async (body, type) => {
        const headers: Record<string, string> = type ? { "Content-Type": type } : {};
        const res = await send("/api/customers/create", { method: "POST", body, headers });
        expect([400, 409, 413, 422], `${type} ${body.slice(0, 80)} -> ${res.status}`).toContain(res.status);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("query-string and form parameters, repeated and hostile: never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(queryOf(CREATE_NAMES), queryOf(CREATE_NAMES), fc.boolean(), async (query, form, asForm) => {
        const res = await send(`/api/customers/create?${query}`, {
          method: "POST",
          body: asForm ? form : undefined,
          headers: asForm ? { "Content-Type": "application/x-www-form-urlencoded" } : {},
        });
        expect([201, 400, 409, 413, 422]).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  });

  it("a body over 16 KiB is 413, whatever it holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 16 * 1024 + 1, max: 64 * 1024 }),
        fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain"),
        async (size, type) => {
          const body = `{"company_name":"${"x".repeat(size)}"}`;
          const res = await send("/api/customers/create", { method: "POST", body, headers: { "Content-Type": type } });
          expect(res.status).toBe(413);
        },
      ),
      { numRuns: 8 },
    );
  });

  it("left no prototype polluted and no half-made customer", async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).company_name).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const orphans = await env.DB.prepare(
      "select count(*) n from customers c where c.id > 25 and not exists (select 1 from customer_addresses a where a.customer_id = c.id)",
    ).first();
    expect(orphans).toEqual({ n: 0 });
    // Whatever was created is listed, in the envelope-free success shape.
    for (const id of created.slice(0, 5)) {
      const res = await send(`/api/customers?count=1&skip=${id - 1}`);
      expect(res.body.data.customers[0].id).toBe(id);
    }
  });
});
