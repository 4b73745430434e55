// The lookup cache (docs/specification.md section 6): area list and pincode answers served from an isolate tier
// in front of KV. A hit needs no D1 at all (shown with a D1 that cannot be reached); a miss answers
// first and fills KV afterwards through waitUntil; unknown pincodes are kept in the isolate only,
// never in KV, and the isolate tier stays bounded; every tier
// serves the same bytes and ETag; an import followed by a purge is served once the isolate tier's
// time to live has passed, and not before: the documented bound.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import app from "../../src/index.ts";
import {
  clearIsolateTier,
  ISOLATE_NEGATIVE_TIER_SIZE,
  ISOLATE_TIER_SIZE,
  ISOLATE_TTL_MS,
  isolateTierSize,
} from "../../src/lookups/lookups.cache.ts";
import { purgeLookupCache } from "../../src/lookups/lookups.cache-purge.ts";
import { importDataset } from "../../src/import/importer.ts";
import { downD1 } from "../helpers/faults.ts";
import { call, callVia, errorEnvelope, type CallOptions } from "../helpers/http.ts";
import { clearIsolateCaches } from "../helpers/api-keys.ts";
import { seedFixtureAndKey } from "../helpers/seed.ts";
import { workOf } from "../helpers/timing-header.ts";

let key: string;

beforeAll(async () => (key = await seedFixtureAndKey()));

beforeEach(() => clearIsolateCaches());
afterEach(() => vi.useRealTimers());

const AREAS = {
  data: [
    { id: 1, name: "Andheri East", city_id: 1 },
    { id: 2, name: "Koramangala", city_id: 2 },
    { id: 3, name: "Bandra West", city_id: 1 },
  ],
};

/** The app called with some bindings replaced, and a record of what it handed to waitUntil. */
function appWith(overrides: Partial<Cloudflare.Env>) {
  const ctx = createExecutionContext();
  const handed: Promise<unknown>[] = [];
  const spy = {
    waitUntil: (p: Promise<unknown>) => {
      handed.push(p);
      ctx.waitUntil(p);
    },
    passThroughOnException: () => ctx.passThroughOnException(),
    props: {},
  } as unknown as ExecutionContext;
  return {
    fetch: async (request: Request) => app.fetch(request, { ...env, ...overrides }, spy),
    handed,
    done: () => waitOnExecutionContext(ctx),
  };
}

/** Calls through the app with these bindings; its background work is finished before returning. */
async function callWith(overrides: Partial<Cloudflare.Env>, path: string, options: CallOptions = {}) {
  const worker = appWith(overrides);
  const res = await callVia(worker.fetch, path, options);
  await worker.done();
  return res;
}

/** The lookup cache, recording the name of every put(). */
function countPuts(kv: KVNamespace) {
  const keys: string[] = [];
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "put") {
        return (...args: Parameters<KVNamespace["put"]>) => {
          keys.push(args[0]);
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, keys };
}

/** The lookup cache, with every put() held back until release(): a KV that writes slowly. */
function slowPuts(kv: KVNamespace) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started: string[] = [];
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "put") {
        return async (...args: Parameters<KVNamespace["put"]>) => {
          started.push(args[0]);
          await gate;
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, started, release };
}

/** The cached lookups under their aliases (singular and plural, /api and the root), each with its KV entry. */
const CACHED = [
  ["/api/area", "v1:areas"],
  ["/api/areas", "v1:areas"],
  ["/api/fetch-salesagent-by-pincode?pincode=400069", "v1:pincode:400069"],
  ["/fetch-salesagent-by-pincode?pincode=400050", "v1:pincode:400050"],
] as const;

describe("a hit", () => {
  it.each(CACHED)("%s is served with D1 unreachable, from the isolate tier and from KV", async (path, entry) => {
    await env.LOOKUP_CACHE.delete(entry);
    // Cold and empty, D1 is needed: unreachable, the lookup is a 503 (so the fault below is real).
    const failed = await callWith({ DB: downD1() }, path, { key });
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual(errorEnvelope(503, "SERVICE_UNAVAILABLE", expect.any(String), path.split("?")[0]!));

    const filled = await callWith({}, path, { key });
    expect(filled.status).toBe(200);
    const fromIsolate = await callWith({ DB: downD1() }, path, { key });
    clearIsolateTier();
    const fromKv = await callWith({ DB: downD1() }, path, { key });
    for (const hit of [fromIsolate, fromKv]) {
      expect({ status: hit.status, text: hit.text, d1: workOf(hit).d1 }).toEqual({
        status: 200,
        text: filled.text,
        d1: 0,
      });
    }
  });
});

describe("a miss", () => {
  it("answers first and fills KV afterwards, through waitUntil", async () => {
    await env.LOOKUP_CACHE.delete("v1:areas");
    const slow = slowPuts(env.LOOKUP_CACHE);
    // Usage recording off: its write would be a second waitUntil task of this request.
    const worker = appWith({ LOOKUP_CACHE: slow.kv, USAGE_FLUSH_SECONDS: "off" });

    const res = await callVia(worker.fetch, "/api/area", { key });
    // The answer is here while the KV write has not been allowed to finish.
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: AREAS });
    expect(slow.started).toEqual(["v1:areas"]);
    expect(worker.handed).toHaveLength(1);
    expect(await env.LOOKUP_CACHE.get("v1:areas")).toBeNull();

    slow.release();
    await worker.done();
    const stored = await env.LOOKUP_CACHE.getWithMetadata<{ etag: string }>("v1:areas");
    expect(stored).toEqual({ value: res.text, metadata: { etag: res.headers.get("ETag") }, cacheStatus: null });
  });

  it("keeps the answer for a pincode that nobody serves, known or not, in the isolate only: no KV write", async () => {
    for (const pincode of ["110001", "999999"]) {
      const entry = `v1:pincode:${pincode}`;
      await env.LOOKUP_CACHE.delete(entry);
      const path = `/api/fetch-salesagent-by-pincode?pincode=${pincode}`;
      const puts = countPuts(env.LOOKUP_CACHE);
      const first = await callWith({ LOOKUP_CACHE: puts.kv }, path, { key });
      expect({ status: first.status, body: first.body, work: workOf(first) }).toEqual({
        status: 200,
        body: { data: [], message: `No sales agent serves pincode ${pincode}` },
        // The key's record (once per isolate) and the cache entry that is not there.
        work: { d1: 1, kv: pincode === "110001" ? 2 : 1 },
      });
      expect(first.headers.get("ETag")).toMatch(/^"[0-9a-f]{32}"$/);
      expect(puts.keys).toEqual([]);
      expect(await env.LOOKUP_CACHE.get(entry)).toBeNull();

      // The isolate answers it again without D1, byte for byte and with the same ETag.
      const again = await callWith({ DB: downD1(), LOOKUP_CACHE: puts.kv }, path, { key });
      expect({ status: again.status, text: again.text, etag: again.headers.get("ETag"), work: workOf(again) }).toEqual({
        status: 200,
        text: first.text,
        etag: first.headers.get("ETag"),
        work: { d1: 0, kv: 0 },
      });
      // A new isolate asks D1 again, and gets the same bytes.
      clearIsolateTier();
      const fresh = await callWith({ LOOKUP_CACHE: puts.kv }, path, { key });
      expect({ text: fresh.text, etag: fresh.headers.get("ETag") }).toEqual({
        text: first.text,
        etag: first.headers.get("ETag"),
      });
      expect(puts.keys).toEqual([]);
    }
  });

  it("keeps the isolate tier bounded through a walk over more unknown pincodes than it holds; served answers stay", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const served = "/api/fetch-salesagent-by-pincode?pincode=400069";
    expect((await call(served, { key })).status).toBe(200);
    const puts = countPuts(env.LOOKUP_CACHE);
    const walk = Array.from({ length: ISOLATE_NEGATIVE_TIER_SIZE + 100 }, (_, i) => String(800_000 + i));
    for (let i = 0; i < walk.length; i += 50) {
      const answers = await Promise.all(
        walk
          .slice(i, i + 50)
          // Past the key's rate limit otherwise; the limit is not what this test is about.
          .map((pincode) =>
            callWith(
              { LOOKUP_CACHE: puts.kv, RATE_LIMIT_PER_MINUTE: "0" },
              `/fetch-salesagent-by-pincode?pincode=${pincode}`,
              { key },
            ),
          ),
      );
      answers.forEach((res, j) =>
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          body: { data: [], message: `No sales agent serves pincode ${walk[i + j]}` },
        }),
      );
    }
    expect(puts.keys).toEqual([]);
    expect(isolateTierSize()).toBe(ISOLATE_NEGATIVE_TIER_SIZE + 1);
    expect(isolateTierSize()).toBeLessThanOrEqual(ISOLATE_TIER_SIZE + ISOLATE_NEGATIVE_TIER_SIZE);
    const again = await call(served, { key });
    expect({ status: again.status, work: workOf(again) }).toEqual({ status: 200, work: { d1: 0, kv: 0 } });
  }, 120_000);

  it("a KV write that fails costs nothing but the cache: the answer is still 200", async () => {
    await env.LOOKUP_CACHE.delete("v1:pincode:560034");
    const failing = new Proxy(env.LOOKUP_CACHE, {
      get(target, prop) {
        if (prop === "put") return () => Promise.reject(new Error("KV PUT failed: 503"));
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const res = await callWith({ LOOKUP_CACHE: failing }, "/api/fetch-salesagent-by-pincode?pincode=560034", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: 2, first_name: "Vikram", last_name: "Shetty", mobile: "9876500002" }],
      message: "",
    });
    expect(await env.LOOKUP_CACHE.get("v1:pincode:560034")).toBeNull();
  });
});

describe("every tier serves the same answer", () => {
  it.each(CACHED)("%s: byte for byte, with the same ETag, and 304 to a matching If-None-Match", async (path, entry) => {
    await env.LOOKUP_CACHE.delete(entry);
    const uncached = await callWith({}, path, { key });
    expect(workOf(uncached).d1).toBe(1);
    const etag = uncached.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const fromIsolate = await call(path, { key });
    clearIsolateTier();
    const fromKv = await call(path, { key });
    expect([workOf(fromIsolate), workOf(fromKv)]).toEqual([
      { d1: 0, kv: 0 },
      { d1: 0, kv: 1 },
    ]);
    for (const hit of [fromIsolate, fromKv]) {
      expect({ text: hit.text, etag: hit.headers.get("ETag"), type: hit.headers.get("Content-Type") }).toEqual({
        text: uncached.text,
        etag,
        type: "application/json",
      });
    }

    // 304 from each tier: the isolate, KV, and a fresh answer from D1.
    for (const prepare of [
      () => undefined,
      () => clearIsolateTier(),
      () => env.LOOKUP_CACHE.delete(entry).then(clearIsolateTier),
    ]) {
      await prepare();
      const notModified = await callWith({}, path, { key, headers: { "If-None-Match": etag } });
      expect({ status: notModified.status, text: notModified.text, etag: notModified.headers.get("ETag") }).toEqual({
        status: 304,
        text: "",
        etag,
      });
    }
    const changed = await call(path, { key, headers: { "If-None-Match": '"0123456789abcdef0123456789abcdef"' } });
    expect({ status: changed.status, text: changed.text }).toEqual({ status: 200, text: uncached.text });
  });
});

describe("after an import", () => {
  it("serves the new data once the isolate tier's time to live has passed, and the old one until then", async () => {
    expect(ISOLATE_TTL_MS).toBeLessThanOrEqual(10_000);
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(t0);
    const areasBefore = await call("/api/area", { key });
    const pincodeBefore = await call("/api/fetch-salesagent-by-pincode?pincode=400050", { key });
    expect(areasBefore.body).toEqual(AREAS);
    expect(pincodeBefore.body).toEqual({
      data: [{ id: 1, first_name: "Asha", last_name: "Rao", mobile: "9876543210" }],
      message: "",
    });

    await importDataset(env.DB, {
      areas: [{ id: 3, name: "Bandra (West)", area_code: "BW", city_id: 1 }],
      sales_agents: [
        {
          id: 4,
          first_name: "Neel",
          last_name: "Desai",
          mobile_number: "9876500004",
          email: null,
          avatar: null,
          postalcode_ids: [3],
        },
      ],
    });
    expect(await purgeLookupCache(env.LOOKUP_CACHE)).toBeGreaterThanOrEqual(2);
    expect((await env.LOOKUP_CACHE.list()).keys).toEqual([]);

    // Within the isolate tier's time to live, this isolate still answers from before the import.
    vi.setSystemTime(t0 + ISOLATE_TTL_MS - 1);
    expect((await call("/api/area", { key })).text).toBe(areasBefore.text);
    expect((await call("/api/fetch-salesagent-by-pincode?pincode=400050", { key })).text).toBe(pincodeBefore.text);

    vi.setSystemTime(t0 + ISOLATE_TTL_MS);
    const areasAfter = await call("/api/area", { key });
    expect(areasAfter.body).toEqual({
      data: [AREAS.data[0], AREAS.data[1], { id: 3, name: "Bandra (West)", city_id: 1 }],
    });
    expect(areasAfter.headers.get("ETag")).not.toBe(areasBefore.headers.get("ETag"));
    const pincodeAfter = await call("/api/fetch-salesagent-by-pincode?pincode=400050", { key });
    expect(pincodeAfter.body).toEqual({
      data: [
        { id: 1, first_name: "Asha", last_name: "Rao", mobile: "9876543210" },
        { id: 4, first_name: "Neel", last_name: "Desai", mobile: "9876500004" },
      ],
      message: "",
    });
    expect(workOf(pincodeAfter).d1).toBe(1);
  });
});
