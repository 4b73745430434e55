// Server-Timing on every API answer (docs/specification.md section 6): the D1 round trips and KV reads that each
// endpoint makes, as the metering wrappers around the bindings count them. A read is one D1 round
// trip at most whatever the page size; authentication does no D1 work and, on a warm isolate, no KV
// read; a lookup costs 0/0 on a warm isolate, 0 D1 + 1 KV read cold with KV filled, 1 + 1 cold and empty.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import app from "../../src/index.ts";
import { clearIsolateTier } from "../../src/lookups/lookups.cache.ts";
import { call, callVia, type CallOptions, type CallResult } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { rowsReadOf, timingEntries, workOf, type Work } from "../helpers/timing-header.ts";

let key: string;

beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

beforeEach(() => clearIsolateCaches());

/** A request that reads the key into this isolate, so that the next ones make no KV read for it. */
async function warmKey(): Promise<void> {
  const res = await call("/api/salesagents?count=1", { key });
  expect({ status: res.status, work: workOf(res) }).toEqual({ status: 200, work: { d1: 1, kv: 1 } });
}

async function expectWork(path: string, options: CallOptions, status: number, work: Work): Promise<CallResult> {
  const res = await call(path, options);
  expect({ path, status: res.status, work: workOf(res) }).toEqual({ path, status, work });
  return res;
}

/** The answer's ETag sent back: 304 with no body, and neither D1 nor KV work. */
async function expectNotModified(path: string, answer: CallResult): Promise<void> {
  const headers = { "If-None-Match": answer.headers.get("ETag")! };
  const notModified = await expectWork(path, { key, headers }, 304, { d1: 0, kv: 0 });
  expect(notModified.text).toBe("");
}

/** Waits until the lookup cache's KV entry exists (it is written after the answer, via waitUntil). */
async function kvEntry(name: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const value = await env.LOOKUP_CACHE.get(name);
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the lookup cache never got ${name}`);
}

describe("reads: one D1 round trip at most, whatever the page size", () => {
  it.each([
    ["/api/customers", 200],
    ["/customers?count=100", 200],
    ["/api/customers?count=10&page=3", 200],
    // A page past the end still counts its total in the same batch.
    ["/api/customers?count=100&page=9", 200],
    ["/api/orders?phone_number=9820000001", 200],
    // All twelve orders of customer 1 on one page: their lines, agents, statuses and invoices too.
    ["/api/orders?phone_number=%2B91%2098200%2000001&count=100", 200],
    ["/orders?phone_number=9820000001&from_date=01-01-2026&to_date=31-03-2026&count=100", 200],
    ["/api/orders?phone_number=9820000002&count=100", 200],
    // No customer has the number: found out in the same single batch.
    ["/api/orders?phone_number=9999999999", 404],
    ["/api/postalcodes?count=100", 200],
    ["/postalcodes?code=400069", 200],
    ["/api/salesagents?count=100", 200],
  ])("%s: 1 round trip, no KV read with the key in the isolate", async (path, status) => {
    await warmKey();
    await expectWork(path, { key }, status, { d1: 1, kv: 0 });
  });

  it("really serves many orders in that one round trip", async () => {
    await warmKey();
    const res = await expectWork("/api/orders?phone_number=9820000001&count=100", { key }, 200, { d1: 1, kv: 0 });
    expect(res.body.data.orders).toHaveLength(12);
    expect(res.body.data.orders.flatMap((o: { products: unknown[] }) => o.products)).toHaveLength(14);
  });
});

// d1rows: the rows that D1 says the statements read (its meta.rows_read, summed), on the fixture's
// 25 customers and customer 1's 12 orders. A total without dates is a kept count (a customer's
// orders: the customer's id, then its count); a page by page=N also reads the index entries before
// it, joining none of them, and its kept total once more (past it, nothing else); a page by the
// cursor of next_page_url reads its own rows only.
describe("rows read (d1rows), for every endpoint and both paging styles", () => {
  it.each([
    ["/api/customers", 200, 57],
    ["/customers?count=100", 200, 147],
    ["/api/customers?count=10&page=2", 200, 73],
    ["/api/customers?count=10&page=3", 200, 53],
    ["/api/customers?count=100&page=9", 200, 2],
    ["/api/orders?phone_number=9820000001", 200, 85],
    ["/api/orders?phone_number=%2B91%2098200%2000001&count=100", 200, 99],
    ["/orders?phone_number=9820000001&from_date=01-01-2026&to_date=31-03-2026&count=100", 200, 111],
    ["/api/orders?phone_number=9820000001&count=5&page=2", 200, 51],
    ["/api/orders?phone_number=9820000002&count=100", 200, 12],
    ["/api/orders?phone_number=9999999999", 404, 0],
    ["/api/postalcodes?count=100", 200, 6],
    ["/api/postalcodes?count=2&page=2", 200, 6],
    ["/postalcodes?code=400069", 200, 6],
    ["/api/salesagents?count=100", 200, 4],
    ["/api/salesagents?count=1&page=2", 200, 4],
  ])("%s: %i, %i rows", async (path, status, rows) => {
    const res = await call(path, { key });
    expect({ status: res.status, rows: rowsReadOf(res) }).toEqual({ status, rows });
  });

  it.each([
    ["/api/customers?count=10", 61],
    ["/api/orders?phone_number=9820000001&count=5", 45],
    ["/api/postalcodes?count=2", 3],
    ["/api/postalcodes?count=1&code=400069", 4],
    ["/api/salesagents?count=1", 2],
  ])("%s, then its next_page_url (a cursor): %i rows for page 2", async (path, rows) => {
    const first = await call(path, { key });
    const next = await call(first.body.data.pagination.next_page_url, { key });
    expect({ status: next.status, rows: rowsReadOf(next) }).toEqual({ status: 200, rows });
  });

  it("lookups read D1 only on an empty cache; create reads its lookup and write batches; errors read nothing", async () => {
    await env.LOOKUP_CACHE.delete("v1:areas");
    await env.LOOKUP_CACHE.delete("v1:pincode:400069");
    clearIsolateCaches();
    const reads = async (path: string, options: CallOptions = { key }) => rowsReadOf(await call(path, options));
    expect(await reads("/api/area")).toBe(3);
    expect(await reads("/api/fetch-salesagent-by-pincode?pincode=400069")).toBe(12);
    expect(await reads("/api/area")).toBe(0);
    const body = {
      company_name: "Rows Traders",
      mobile_number: "9700099911",
      contactpersons_name: "R",
      address: "1 Row Road",
      area_id: 1,
      postalcode_id: 1,
      gst_treatment: "Unregistered",
      salesagent_id: 1,
    };
    // The lookup batch, and the write batch with its triggers' kept counts (row_counts, the agent's)
    // and the customer's sync log entry (written by the customer's insert, again by its address's).
    expect(await reads("/api/customers/create", { key, method: "POST", body })).toBe(32);
    expect(await reads("/api/customers?count=0")).toBe(0);
    expect(await reads("/api/customers", {})).toBe(0);
    expect(await reads("/api/nope")).toBe(0);
  });
});

describe("lookups through the cache tiers", () => {
  it.each([
    ["/api/area", "v1:areas"],
    ["/areas", "v1:areas"],
    ["/api/fetch-salesagent-by-pincode?pincode=400069", "v1:pincode:400069"],
  ])("%s: cold and empty 1 + 1, cold with KV filled 0 + 1, warm 0 + 0", async (path, entry) => {
    await env.LOOKUP_CACHE.delete(entry);
    await warmKey();

    const empty = await expectWork(path, { key }, 200, { d1: 1, kv: 1 });
    expect(await kvEntry(entry)).toBe(empty.text);

    clearIsolateTier();
    const fromKv = await expectWork(path, { key }, 200, { d1: 0, kv: 1 });
    const warm = await expectWork(path, { key }, 200, { d1: 0, kv: 0 });
    expect([fromKv.text, warm.text]).toEqual([empty.text, empty.text]);

    await expectNotModified(path, empty);
  });

  it("a pincode nobody serves: cold 1 + 1 (never written to KV), so a new isolate again 1 + 1; warm 0 + 0", async () => {
    const path = "/fetch-salesagent-by-pincode?pincode=999999";
    await env.LOOKUP_CACHE.delete("v1:pincode:999999");
    await warmKey();
    const empty = await expectWork(path, { key }, 200, { d1: 1, kv: 1 });
    const warm = await expectWork(path, { key }, 200, { d1: 0, kv: 0 });
    clearIsolateTier();
    const cold = await expectWork(path, { key }, 200, { d1: 1, kv: 1 });
    expect([warm.text, cold.text]).toEqual([empty.text, empty.text]);
    await expectNotModified(path, empty);
    expect(await env.LOOKUP_CACHE.get("v1:pincode:999999")).toBeNull();
  });

  it("a new isolate's first lookup reads the key and the cache entry: two KV reads, no D1", async () => {
    await env.LOOKUP_CACHE.delete("v1:areas");
    await expectWork("/api/area", { key }, 200, { d1: 1, kv: 2 }); // fills KV
    await kvEntry("v1:areas");
    clearIsolateCaches();
    await expectWork("/api/area", { key }, 200, { d1: 0, kv: 2 });
    await expectWork("/api/area", { key }, 200, { d1: 0, kv: 0 });
  });

  it("a malformed pincode is a 422 without touching the cache or D1", async () => {
    await warmKey();
    await expectWork("/api/fetch-salesagent-by-pincode?pincode=012345", { key }, 422, { d1: 0, kv: 0 });
  });
});

describe("authentication", () => {
  it("does no D1 work, and reads a key from KV once per isolate time to live", async () => {
    await expectWork("/api/customers?count=1", { key }, 200, { d1: 1, kv: 1 });
    await expectWork("/api/customers?count=1", { key }, 200, { d1: 1, kv: 0 });
    await expectWork("/api/orders?phone_number=9820000001", { key }, 200, { d1: 1, kv: 0 });
  });

  it("answers 401 without D1 work: no header or a wrong mode without KV, an unknown key with one read", async () => {
    await expectWork("/api/customers", {}, 401, { d1: 0, kv: 0 });
    await expectWork("/api/customers", { headers: { Authorization: "Basic abc" } }, 401, { d1: 0, kv: 0 });
    const live = (await makeKey({ mode: "live" })).secret;
    await expectWork("/api/orders?phone_number=9820000001", { key: live }, 401, { d1: 0, kv: 0 });
    const unknown = `sk_test_${"A".repeat(40)}`;
    await expectWork("/api/area", { key: unknown }, 401, { d1: 0, kv: 1 });
    // "No such key" is remembered too.
    await expectWork("/api/area", { key: unknown }, 401, { d1: 0, kv: 0 });
    // A bad body is not looked at before the key: still no D1 work.
    await expectWork("/api/customers/create", { method: "POST", body: "{" }, 401, { d1: 0, kv: 0 });
  });
});

describe("errors", () => {
  it("a validation failure (422) does no D1 work", async () => {
    await warmKey();
    for (const path of [
      "/api/customers?count=0",
      "/api/customers?skip=1&page=2",
      "/api/orders?phone_number=12345",
      "/api/orders?phone_number=9820000001&from_date=31-02-2026",
      "/api/postalcodes?code=12",
      "/api/salesagents?count=101",
    ]) {
      await expectWork(path, { key }, 422, { d1: 0, kv: 0 });
    }
  });

  it("404 and 405 do neither D1 nor KV work, key or not", async () => {
    await expectWork("/api/nope", { key }, 404, { d1: 0, kv: 0 });
    await expectWork("/nope", {}, 404, { d1: 0, kv: 0 });
    await expectWork("/api/customers", { key, method: "DELETE" }, 405, { d1: 0, kv: 0 });
    await expectWork("/areas", { method: "PUT" }, 405, { d1: 0, kv: 0 });
  });
});

describe("POST /customers/create", () => {
  const params = (mobile: string) => ({
    company_name: "Timing Traders",
    mobile_number: mobile,
    contactpersons_name: "Tara",
    address: "1 Clock Tower Road",
    area_id: 1,
    postalcode_id: 1,
    gst_treatment: "Unregistered",
    salesagent_id: 1,
  });

  it("creates in two round trips: the lookup batch and the write batch", async () => {
    await warmKey();
    await expectWork("/api/customers/create", { key, method: "POST", body: params("9700099901") }, 201, {
      d1: 2,
      kv: 0,
    });
  });

  it("refuses a taken number or an unknown reference after the lookup batch alone", async () => {
    await warmKey();
    await expectWork("/api/customers/create", { key, method: "POST", body: params("+91 98200 00001") }, 409, {
      d1: 1,
      kv: 0,
    });
    await expectWork(
      "/customers/create",
      { key, method: "POST", body: { ...params("9700099902"), area_id: 999 } },
      422,
      {
        d1: 1,
        kv: 0,
      },
    );
  });
});

describe("the header itself", () => {
  /** The app called with these vars, through the same contract check as call(). */
  const withVars = (vars: Partial<Cloudflare.Env>) => async (request: Request) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(request, { ...env, ...vars }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("lists d1, d1rows, kv and total in that order", async () => {
    const res = await call("/api/area", { key });
    expect(timingEntries(res).map((e) => e.split(";")[0])).toEqual(["d1", "d1rows", "kv", "total"]);
  });

  it("is left out when SERVER_TIMING is off, on answers of every kind", async () => {
    for (const [path, options, status] of [
      ["/api/area", { key }, 200],
      ["/api/customers?count=2", { key }, 200],
      ["/api/customers", {}, 401],
      ["/api/nope", {}, 404],
    ] as const) {
      const on = await callVia(withVars({ SERVER_TIMING: "on" }), path, options);
      expect(on.status).toBe(status);
      expect(timingEntries(on)).toHaveLength(4);
      const off = await callVia(withVars({ SERVER_TIMING: "off" }), path, options);
      expect(off.status).toBe(status);
      expect(off.headers.get("Server-Timing")).toBeNull();
      expect(off.headers.get("X-Request-Id")).not.toBeNull();
    }
  });
});
