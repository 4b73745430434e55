// POST /customers/create under races and faults: concurrent creates decided inside the write batch,
// and nothing half-made when a write fails.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callWithEnv, expectNoLeak } from "../../helpers/faults.ts";
import { errorEnvelope } from "../../helpers/http.ts";
import {
  counts,
  FORM,
  freshMobile,
  interceptBatches,
  lookupBarrier,
  MSG,
  params,
  PATH,
  post,
  roundTrips,
  setUpCreate,
  validation,
} from "./create.helpers.ts";

let key: string;
beforeAll(async () => (key = await setUpCreate(6000)));

describe("races decided inside the write batch", () => {
  it("gives one 201 and nine 409s naming the winner when ten creates with one number all pass the lookup", async () => {
    const before = await counts();
    const mobile = freshMobile();
    const db = lookupBarrier(10);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        callWithEnv({ DB: db }, PATH, {
          method: "POST",
          key,
          body: params({ company_name: `Racer ${i}`, mobile_number: mobile }),
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!;
    expect(roundTrips(winner)).toBe("2");
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toEqual(
        errorEnvelope(
          409,
          "CONFLICT",
          `A customer with this mobile number exists: customer ${winner.body.data.id}`,
          PATH,
          {
            customer_id: winner.body.data.id,
          },
        ),
      );
      // The lookup found nothing; the unique index stopped the write; the winner's id was read.
      expect(roundTrips(r)).toBe("3");
    }
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });
  });

  it("replays the winner's answer to duplicates with one key that all pass the lookup", async () => {
    const before = await counts();
    const p = params();
    const db = lookupBarrier(5);
    const headers = { "Idempotency-Key": "barrier-duplicates" };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => callWithEnv({ DB: db }, PATH, { method: "POST", key, body: p, headers })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const replays = results.filter((r) => r.headers.get("Idempotent-Replayed") === "true");
    expect(replays).toHaveLength(4);
    for (const r of replays) expect(roundTrips(r)).toBe("3");
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("gives 409 to duplicates with one key and other parameters that all pass the lookup", async () => {
    const before = await counts();
    const db = lookupBarrier(4);
    const headers = { "Idempotency-Key": "barrier-different" };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => callWithEnv({ DB: db }, PATH, { method: "POST", key, body: params(), headers })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body.error.description).toBe(
        "This Idempotency-Key was used with other parameters within the last 24 hours; send a new key for a new request",
      );
    }
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("stores the answer actually sent when reference data changes between the lookup and the write", async () => {
    const db = interceptBatches(async (real, nth) => {
      if (nth === 2) await env.DB.prepare("update areas set name = 'Spare Renamed' where id = 4").run();
      return real();
    });
    const headers = { "Idempotency-Key": "renamed-area" };
    const p = params({ area_id: 4 });
    const first = await callWithEnv({ DB: db }, PATH, { method: "POST", key, body: p, headers });
    expect(first.status).toBe(201);
    expect(first.body.data.address.area.name).toBe("Spare Renamed");
    const again = await post(p, { headers });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.text).toBe(first.text);
  });
});

describe("nothing half-made", () => {
  /** Runs `body` while a trigger `name` (`when`: its event and condition) aborts the statement, and drops it after. */
  async function withFault(name: string, when: string, body: () => Promise<void>): Promise<void> {
    await env.DB.prepare(`create trigger ${name} ${when} begin select raise(abort, 'injected fault'); end`).run();
    try {
      await body();
    } finally {
      await env.DB.prepare(`drop trigger if exists ${name}`).run();
    }
  }

  it("leaves no row when the write batch fails after the customer insert", async () => {
    await withFault("fail_address", "before insert on customer_addresses when new.addressline1 = 'FAULT'", async () => {
      const before = await counts();
      const mobile = freshMobile();
      const res = await post(params({ address: "FAULT", mobile_number: mobile }), {
        headers: { "Idempotency-Key": "fault-1" },
      });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body.error.status_code).toBe(res.status);
      expectNoLeak(res.text);
      expect(await counts()).toEqual(before);
      expect(await env.DB.prepare("select count(*) n from customers where phone_key = ?").bind(mobile).first()).toEqual(
        { n: 0 },
      );
      // The key was not used up: the same request succeeds once the fault is gone.
      await env.DB.prepare("drop trigger fail_address").run();
      const retry = await post(params({ address: "FAULT", mobile_number: mobile }), {
        headers: { "Idempotency-Key": "fault-1" },
      });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    });
  });

  it("leaves no row when the last statement of the write batch (storing the answer) fails", async () => {
    await withFault("fail_answer", "before update on idempotency_keys when new.body like '%LATE FAULT%'", async () => {
      const before = await counts();
      const res = await post(params({ company_name: "LATE FAULT" }), { headers: { "Idempotency-Key": "fault-2" } });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expectNoLeak(res.text);
      expect(await counts()).toEqual(before);
    });
  });

  it("answers 422 naming the area when it is deleted between the lookup and the write, leaving no row", async () => {
    const before = await counts();
    let batches = 0;
    const racing = interceptBatches(async (real, nth) => {
      batches++;
      if (nth === 2) await env.DB.prepare("delete from areas where id = 3").run();
      return real();
    });
    const res = await callWithEnv({ DB: racing }, PATH, {
      method: "POST",
      key,
      body: params({ area_id: 3 }),
      headers: { "Idempotency-Key": "area-gone" },
    });
    // The lookup, the write that the foreign key stopped, the lookup of what went away.
    expect(batches).toBe(3);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: validation([["area_id", MSG.noArea]]),
    });
    expect(await counts()).toEqual(before);
  });

  it("leaves no row for a failed create of any kind", async () => {
    const before = await counts();
    const statuses = [
      (await post(params({ area_id: 999 }))).status,
      (await post(params({ mobile_number: "9820000001" }))).status,
      (await post("{", { headers: { "Content-Type": "application/json" } })).status,
      (await post("x".repeat(17000), { headers: FORM })).status,
    ];
    expect(statuses).toEqual([422, 409, 400, 413]);
    expect(await counts()).toEqual(before);
  });
});
