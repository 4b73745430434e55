// POST /customers/create through HTTP into the worker, on real local D1 and KV (docs/specification.md
// section 5): what a create answers and stores, the mobile number's rules, and Idempotency-Key.
// Rejected requests are in create.errors.test.ts, races and faults in create.races.test.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, errorEnvelope } from "../../helpers/http.ts";
import { makeKey, markDue } from "../../helpers/api-keys.ts";
import { createBody, createdCustomer } from "../../fixtures/create-body.ts";
import * as h from "./create.helpers.ts";

let key: string;
beforeAll(async () => (key = await h.setUpCreate(100)));

describe("creating", () => {
  it("creates from a JSON body: 201 with the whole customer, listed by GET /customers and found by GET /orders at once", async () => {
    const before = await h.counts();
    const res = await h.post(
      h.params({ mobile_number: "+91 97000 11111", gst_treatment: "Registered", gstin: "27AAPFU0939F1ZV" }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    const id = res.body.data.id;
    expect(Number.isInteger(id) && id > 1).toBe(true);
    const customer = createdCustomer(
      id,
      createBody("+91 97000 11111", { gst_treatment: "Registered", gstin: "27AAPFU0939F1ZV" }),
      h.DATASET,
    );
    expect(res.body).toEqual({ data: customer });
    // Two round trips: the lookup batch and the write batch.
    expect(res.headers.get("Server-Timing")).toMatch(/d1;dur=[\d.]+;desc="2 round trips"/);
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });

    const listed = await call("/api/customers?count=100", { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.customers.find((c: { id: number }) => c.id === id)).toEqual(customer);

    const orders = await call("/api/orders?phone_number=9700011111", { key });
    expect(orders.status).toBe(200);
    expect(orders.body.data.orders).toEqual([]);
    expect(orders.body.data.pagination.total).toBe(0);
  });

  it("is served at the root path too", async () => {
    const res = await call("/customers/create", { method: "POST", key, body: h.params() });
    expect(res.status).toBe(201);
  });

  it("takes the parameters from the query string, as published", async () => {
    const p = h.params({ mobile_number: "098200-55555", area_id: 2, postalcode_id: 2, salesagent_id: 2 });
    const res = await h.post(undefined, {
      query: Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)])),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      contactperson_number: "098200-55555",
      address: {
        addressline1: "12 MG Road",
        addressline2: "",
        area: h.KORAMANGALA,
        postalcode: { id: 2, code: "560034" },
      },
    });
    const stored = await env.DB.prepare("select phone_key, salesagent_id from customers where id = ?")
      .bind(res.body.data.id)
      .first();
    expect(stored).toEqual({ phone_key: "9820055555", salesagent_id: 2 });
  });

  it("takes the parameters from a urlencoded form body", async () => {
    const res = await h.post(h.form(h.params({ company_name: "Form & Co", mobile_number: "(982) 005.6666" })), {
      headers: h.FORM,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      company_name: "Form & Co",
      display_name: "Form & Co",
      contactperson_number: "(982) 005.6666",
    });
  });

  it("takes the parameters from a multipart form body", async () => {
    const boundary = "create-test-boundary";
    const body =
      Object.entries(h.params({ company_name: "Multipart Co" }))
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`)
        .join("") + `--${boundary}--\r\n`;
    const res = await h.post(body, { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } });
    expect(res.status).toBe(201);
    expect(res.body.data.company_name).toBe("Multipart Co");
  });

  it("lets a body value win over a query value, fills in from the query and ignores unknown parameters", async () => {
    const mobile = h.freshMobile();
    const res = await h.post(
      {
        company_name: "Body Co",
        mobile_number: mobile,
        unknown: "x",
        email: "ignored@example.com",
        gst_treatment: "unregistered",
      },
      {
        query: {
          company_name: "Query Co",
          mobile_number: "not a number",
          contactpersons_name: "From Query",
          address: "Query Street",
          area_id: "1",
          postalcode_id: "1",
          gst_treatment: "nonsense",
          salesagent_id: "1",
          status: "Inactive",
        },
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      company_name: "Body Co",
      contact_person_name: "From Query",
      contactperson_number: mobile,
      email: "",
      gst_treatment: "Unregistered",
      status: "Active",
      address: { addressline1: "Query Street" },
    });
  });

  it("lets a form body win over the query too", async () => {
    const res = await h.post(h.form({ company_name: "Form Wins" }), {
      headers: h.FORM,
      query: { ...h.stringParams(h.params()), company_name: "Query" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.company_name).toBe("Form Wins");
  });

  it("treats JSON null as not given", async () => {
    const res = await h.post(h.params({ gstin: null, company_name: null }), { query: { company_name: "From Query" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ company_name: "From Query", gstin: "" });
  });

  it("reads an empty body (any Content-Type) as no body", async () => {
    const res = await h.post("", {
      query: h.stringParams(h.params()),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(201);
    const spaces = await h.post("  \n", {
      query: h.stringParams(h.params()),
      headers: { "Content-Type": "application/json" },
    });
    expect(spaces.status).toBe(201);
  });

  it("trims the required strings and stores them trimmed", async () => {
    const res = await h.post(
      h.params({ company_name: "  Trim Co \t", contactpersons_name: " Ravi ", address: "\n 5 Link Road " }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      company_name: "Trim Co",
      display_name: "Trim Co",
      contact_person_name: "Ravi",
      address: { addressline1: "5 Link Road" },
    });
  });

  it("accepts 255 characters (counted as characters, not UTF-16 units)", async () => {
    const long = "क".repeat(254) + "😀";
    const res = await h.post(
      h.params({ company_name: long, contactpersons_name: "x".repeat(255), address: "y".repeat(255) }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.company_name).toBe(long);
  });

  it.each([
    ["+91 98300 00001", "9830000001"],
    ["098300-00002", "9830000002"],
    ["(983) 000.0003", "9830000003"],
    ["919830000004", "9830000004"],
    ["+919830000005", "9830000005"],
    ["6830000006", "6830000006"],
    ["7830000007", "7830000007"],
    ["8830000008", "8830000008"],
  ])("accepts the mobile number %j, stored as given with key %s", async (mobile, phoneKey) => {
    const res = await h.post(h.params({ mobile_number: mobile }));
    expect(res.status).toBe(201);
    expect(res.body.data.contactperson_number).toBe(mobile);
    const row = await env.DB.prepare("select phone_key from customers where id = ?").bind(res.body.data.id).first();
    expect(row).toEqual({ phone_key: phoneKey });
  });

  it("accepts ids as JSON numbers and as digit strings", async () => {
    const res = await h.post(h.params({ area_id: "2", postalcode_id: 2, salesagent_id: "02" }));
    expect(res.status).toBe(201);
    expect(res.body.data.address.area.id).toBe(2);
    expect(res.body.data.address.postalcode.id).toBe(2);
  });

  it.each([
    ["Registered", "Registered"],
    ["registered", "Registered"],
    ["REGISTERED", "Registered"],
    ["rEgIsTeReD", "Registered"],
    [" Unregistered ", "Unregistered"],
    ["UNREGISTERED", "Unregistered"],
  ])("takes gst_treatment %j in any letter case and serves %s", async (given, canonical) => {
    const res = await h.post(h.params({ gst_treatment: given, gstin: "29AAGCB7383J1Z4" }));
    expect(res.status).toBe(201);
    expect(res.body.data.gst_treatment).toBe(canonical);
    expect(res.body.data.gstin).toBe(canonical === "Registered" ? "29AAGCB7383J1Z4" : "");
  });

  it("accepts a lowercase GSTIN and stores it upper-cased", async () => {
    const res = await h.post(h.params({ gst_treatment: "Registered", gstin: " 27aapfu0939f1zv " }));
    expect(res.status).toBe(201);
    expect(res.body.data.gstin).toBe("27AAPFU0939F1ZV");
    const row = await env.DB.prepare("select gstin from customers where id = ?").bind(res.body.data.id).first();
    expect(row).toEqual({ gstin: "27AAPFU0939F1ZV" });
  });

  it('ignores any gstin when Unregistered and stores ""', async () => {
    for (const gstin of ["27AAPFU0939F1ZV", "garbage", 42, ["x"]]) {
      const res = await h.post(h.params({ gst_treatment: "Unregistered", gstin }));
      expect(res.status).toBe(201);
      expect(res.body.data.gstin).toBe("");
    }
  });
});

describe("mobile_number: control characters, then trimming, then 32 characters at most", () => {
  /** The same parameters as a JSON body, a urlencoded form body and a query string. */
  const WAYS = {
    json: (p: Record<string, unknown>, headers?: Record<string, string>) => h.post(p, { headers }),
    form: (p: Record<string, unknown>, headers?: Record<string, string>) =>
      h.post(h.form(p), { headers: { ...h.FORM, ...headers } }),
    query: (p: Record<string, unknown>, headers?: Record<string, string>) =>
      h.post(undefined, { query: h.stringParams(p), headers }),
  };
  type Way = keyof typeof WAYS;
  const ways = Object.keys(WAYS) as Way[];

  /** The 201 body of h.params() with this stored number. */
  function createdBody(id: number, number: string) {
    return { data: createdCustomer(id, createBody(number), h.DATASET) };
  }

  async function expectCreated(way: Way, sent: string, stored: string) {
    const res = await WAYS[way](h.params({ mobile_number: sent }));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: createdBody(res.body?.data?.id, stored),
    });
    expect(res.headers.get("Content-Type")).toBe("application/json");
    const row = await env.DB.prepare("select contactperson_number, phone_key from customers where id = ?")
      .bind(res.body.data.id)
      .first();
    expect(row).toEqual({ contactperson_number: stored, phone_key: normalizedOf(stored) });
    return res;
  }

  async function expect422(way: Way, sent: string, message: string) {
    const before = await h.counts();
    const res = await WAYS[way](h.params({ mobile_number: sent }));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: h.validation([["mobile_number", message]]),
    });
    expect(await h.counts()).toEqual(before);
  }

  const normalizedOf = (n: string) =>
    n
      .replace(/[\s\-.()[\]]/g, "")
      .replace(/^\+/, "")
      .replace(/^91(?=\d{10}$)/, "")
      .replace(/^0(?=\d{10}$)/, "");

  const CONTROLS: Array<[string, string]> = [
    ["a tab inside", "98200\t12345"],
    ["CR LF at the end (not trimmed away)", "9820012345\r\n"],
    ["LF at the start (not trimmed away)", "\n9820012345"],
    ["a line break inside", "98200\n12345"],
    ["NUL", "98200\u000012345"],
    ["DEL", "\u007f9820012345"],
    ["NEL (C1)", "98200\u008512345"],
    ["U+2028 line separator", "98200\u202812345"],
    ["U+2029 paragraph separator", "9820012345\u2029"],
    ["a control character among 15,000 spaces", `${" ".repeat(7_500)}\t9820012345${" ".repeat(7_500)}`],
  ];

  for (const way of ways) {
    describe(`in a ${way === "query" ? "query string" : `${way} body`}`, () => {
      it.each(CONTROLS)("%s: 422, nothing stored", async (_, sent) => {
        await expect422(way, sent, h.MSG.mobileControl);
      });

      it("is trimmed of spaces, stored and served trimmed (inner spacing as given)", async () => {
        const number = h.freshMobile();
        const spaced = `+91 ${number.slice(0, 5)} ${number.slice(5)}`;
        await expectCreated(way, `   ${spaced}  `, spaced);
      });

      it("takes 15,000 spaces around a number: stored as the number alone", async () => {
        const number = h.freshMobile();
        await expectCreated(way, `${" ".repeat(7_500)}${number}${" ".repeat(7_500)}`, number);
      });

      it("takes 32 characters after trimming, and refuses 33", async () => {
        const number = h.freshMobile();
        const at32 = `+91${" ".repeat(19)}${number}`;
        expect([...at32].length).toBe(32);
        await expectCreated(way, `  ${at32}  `, at32);
        await expect422(way, `+91${" ".repeat(20)}${h.freshMobile()}`, h.MSG.mobileLong);
        await expect422(way, `${number.slice(0, 5)}${" ".repeat(15_000)}${number.slice(5)}`, h.MSG.mobileLong);
        await expect422(way, `${"😀".repeat(33)}`, h.MSG.mobileLong);
      });
    });
  }

  it("checks control characters first, then the length, then the number", async () => {
    await expect422("json", `${"x".repeat(40)}\n`, h.MSG.mobileControl);
    await expect422("json", "x".repeat(33), h.MSG.mobileLong);
    await expect422("json", "x".repeat(32), h.MSG.mobile);
  });

  it("is fingerprinted for Idempotency-Key as trimmed: padding is the same request", async () => {
    const number = h.freshMobile();
    const headers = { "Idempotency-Key": `trimmed-${number}` };
    const first = await WAYS.json(h.params({ mobile_number: number }), headers);
    expect({ status: first.status, body: first.body }).toEqual({
      status: 201,
      body: createdBody(first.body.data.id, number),
    });
    for (const way of ways) {
      const again = await WAYS[way](h.params({ mobile_number: `  ${number}   ` }), headers);
      expect({ status: again.status, text: again.text, replayed: again.headers.get("Idempotent-Replayed") }).toEqual({
        status: 201,
        text: first.text,
        replayed: "true",
      });
    }
  });
});

describe("Idempotency-Key", () => {
  it("replays the first answer for the same key and parameters, and creates nothing", async () => {
    const p = h.params();
    const headers = { "Idempotency-Key": "order-app-7f3a" };
    const before = await h.counts();
    const first = await h.post(p, { headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });

    const again = await h.post(p, { headers });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Content-Type")).toBe("application/json");

    // The same parameters sent another way (query, ids as text, other case, padding) are the same request.
    const sameOtherWay = await h.post(undefined, {
      headers,
      query: h.stringParams({
        ...p,
        gst_treatment: "UNREGISTERED",
        company_name: ` ${p.company_name} `,
        gstin: "ignored",
      }),
    });
    expect(sameOtherWay.status).toBe(201);
    expect(sameOtherWay.text).toBe(first.text);
    expect(sameOtherWay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("answers 409 for the same key with other parameters", async () => {
    const headers = { "Idempotency-Key": "reused-key" };
    const first = await h.post(h.params(), { headers });
    expect(first.status).toBe(201);
    const before = await h.counts();
    const description =
      "This Idempotency-Key was used with other parameters within the last 24 hours; send a new key for a new request";
    for (const other of [h.params(), { company_name: "broken" }]) {
      const res = await h.post(other, { headers });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: errorEnvelope(409, "CONFLICT", description, h.PATH),
      });
    }
    expect(await h.counts()).toEqual(before);
  });

  it("stores only a 201: a key whose request failed can be used again once the request is fixed", async () => {
    const headers = { "Idempotency-Key": "first-try-failed" };
    const p = h.params();
    const failed = await h.post({ ...p, area_id: 999 }, { headers });
    expect(failed.status).toBe(422);
    const conflict = await h.post({ ...p, mobile_number: "9820000001" }, { headers });
    expect(conflict.status).toBe(409);
    const fixed = await h.post(p, { headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("treats a key older than 24 hours as new", async () => {
    const headers = { "Idempotency-Key": "day-old" };
    const first = await h.post(h.params(), { headers });
    expect(first.status).toBe(201);
    await env.DB.prepare(
      "update idempotency_keys set created_at = created_at - 86400001 where key like '%:day-old'",
    ).run();
    const before = await h.counts();
    const second = await h.post(h.params({ company_name: "A Day Later" }), { headers });
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBeNull();
    expect(second.body.data.company_name).toBe("A Day Later");
    // The stale record was replaced, not added to.
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });
    const replayed = await h.post(h.params({ company_name: "Other" }), { headers });
    expect(replayed.status).toBe(409);
  });

  it("prunes every stale record when it writes one", async () => {
    const first = await h.post(h.params(), { headers: { "Idempotency-Key": "old-1" } });
    const second = await h.post(h.params(), { headers: { "Idempotency-Key": "old-2" } });
    expect([first.status, second.status]).toEqual([201, 201]);
    await env.DB.prepare(
      "update idempotency_keys set created_at = created_at - 86400001 where key like '%:old-_'",
    ).run();
    const before = await h.counts();
    const res = await h.post(h.params(), { headers: { "Idempotency-Key": "new-1" } });
    expect(res.status).toBe(201);
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k - 1 });
    const left = await env.DB.prepare("select count(*) n from idempotency_keys where key like '%:old-_'").first();
    expect(left).toEqual({ n: 0 });
  });

  it("scopes keys to the API key that sent them", async () => {
    const p = h.params();
    const headers = { "Idempotency-Key": "shared-by-chance" };
    const first = await h.post(p, { headers });
    expect(first.status).toBe(201);
    const otherKey = (await makeKey({ name: "other app" })).secret;
    const res = await h.post(p, { headers, key: otherKey });
    // Not a replay of another caller's customer: the number is simply taken.
    expect(res.status).toBe(409);
    expect(res.body.error.customer_id).toBe(first.body.data.id);
  });

  it("belongs to the key's lineage: sent again with the successor after the app rotated its key, it replays", async () => {
    const app = await makeKey({ name: "rotating app" });
    await markDue(app.record.id);
    const p = h.params();
    const headers = { "Idempotency-Key": "sent-before-rotation" };
    const first = await h.post(p, { headers, key: app.secret });
    expect(first.status).toBe(201);
    const rotated = await call("/api/keys/rotate", { method: "POST", key: app.secret });
    expect(rotated.status).toBe(201);
    const before = await h.counts();
    const again = await h.post(p, { headers, key: rotated.body.data.secret });
    expect({ status: again.status, text: again.text, replayed: again.headers.get("Idempotent-Replayed") }).toEqual({
      status: 201,
      text: first.text,
      replayed: "true",
    });
    expect(await h.counts()).toEqual(before);
  });

  it("belongs to an agent-bound key's agent: sent again with the key of a new enrollment of that agent, it replays", async () => {
    const p = h.params();
    const agentId = p.salesagent_id as number;
    const before = await makeKey({ name: "phone before", agentId });
    const after = await makeKey({ name: "phone re-enrolled", agentId });
    const headers = { "Idempotency-Key": "sent-before-re-enrollment" };
    const first = await h.post(p, { headers, key: before.secret });
    expect(first.status).toBe(201);
    const again = await h.post(p, { headers, key: after.secret });
    expect({ status: again.status, text: again.text, replayed: again.headers.get("Idempotent-Replayed") }).toEqual({
      status: 201,
      text: first.text,
      replayed: "true",
    });
    // Another agent's key with the same Idempotency-Key is not a replay: the number is simply taken.
    const other = await makeKey({ name: "another agent's phone", agentId: agentId === 1 ? 2 : 1 });
    const res = await h.post({ ...p, salesagent_id: agentId === 1 ? 2 : 1 }, { headers, key: other.secret });
    expect(res.status).toBe(409);
  });

  it("replays to every one of ten racing duplicates with one key, creating one customer", async () => {
    const before = await h.counts();
    const p = h.params();
    const headers = { "Idempotency-Key": "racing-duplicates" };
    const results = await Promise.all(Array.from({ length: 10 }, () => h.post(p, { headers })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("Idempotent-Replayed") === "true")).toHaveLength(9);
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("gives 409 to racing requests with one key and other parameters, never a 500", async () => {
    const headers = { "Idempotency-Key": "racing-different" };
    const results = await Promise.all(Array.from({ length: 6 }, () => h.post(h.params(), { headers })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});
