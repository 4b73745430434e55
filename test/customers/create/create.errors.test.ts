// POST /customers/create: the requests it refuses (422 naming every broken rule, 400 for a body
// that does not parse, 401 before everything else, 409 for a number that a customer has).
import { beforeAll, describe, expect, it } from "vitest";
import { REQUIRED_CREATE_PARAMETERS } from "../../fixtures/create-body.ts";
import { call, errorEnvelope } from "../../helpers/http.ts";
import * as h from "./create.helpers.ts";

let key: string;
beforeAll(async () => (key = await h.setUpCreate(3000)));

describe("validation", () => {
  async function expect422(body: unknown, fields: Array<[string, string]>, options: Parameters<typeof h.post>[1] = {}) {
    const before = await h.counts();
    const res = await h.post(body, options);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: h.validation(fields) });
    expect(await h.counts()).toEqual(before);
  }

  it("lists every missing parameter in one 422, in the published order", async () => {
    await expect422(
      {},
      REQUIRED_CREATE_PARAMETERS.map((name) => [name, h.MSG.required]),
    );
  });

  it.each(REQUIRED_CREATE_PARAMETERS)("requires %s", async (name) => {
    const p = h.params();
    delete p[name];
    await expect422(p, [[name, h.MSG.required]]);
  });

  it.each(["company_name", "contactpersons_name", "address"])("rejects %s empty after trimming", async (name) => {
    await expect422(h.params({ [name]: "  \t " }), [[name, h.MSG.empty]]);
    await expect422(h.params({ [name]: "" }), [[name, h.MSG.empty]]);
  });

  it("rejects mobile_number empty after trimming spaces (a tab is a control character: see below)", async () => {
    await expect422(h.params({ mobile_number: "    " }), [["mobile_number", h.MSG.empty]]);
    await expect422(h.params({ mobile_number: "" }), [["mobile_number", h.MSG.empty]]);
  });

  it.each(["company_name", "contactpersons_name", "address"])("rejects %s over 255 characters", async (name) => {
    await expect422(h.params({ [name]: "x".repeat(256) }), [[name, h.MSG.long]]);
    await expect422(h.params({ [name]: "😀".repeat(256) }), [[name, h.MSG.long]]);
  });

  it.each(["company_name", "contactpersons_name", "address", "mobile_number"])(
    "rejects %s that is not a string",
    async (name) => {
      await expect422(h.params({ [name]: 9820000001 }), [[name, h.MSG.string]]);
      await expect422(h.params({ [name]: { a: 1 } }), [[name, h.MSG.string]]);
    },
  );

  it.each([
    ["982000001", h.MSG.mobile], // 9 digits
    ["19820000001", h.MSG.mobile], // 11 digits not starting 0
    ["98200000012", h.MSG.mobile],
    ["9820000001x", h.MSG.mobile], // letters
    ["abcdefghij", h.MSG.mobile],
    ["+92 98200 00001", h.MSG.mobile],
    ["5820000001", h.MSG.mobileFirst], // first digit 5
    ["+91 58200 00001", h.MSG.mobileFirst],
    ["0123456789", h.MSG.mobileFirst],
  ])("rejects the mobile number %j", async (mobile, message) => {
    await expect422(h.params({ mobile_number: mobile }), [["mobile_number", message]]);
  });

  it.each(["area_id", "postalcode_id", "salesagent_id"])("rejects %s that is not a positive integer", async (name) => {
    for (const bad of [1.5, "1.5", "abc", 0, "0", -1, "-1", true, [1], {}, "", " 1", "1e3", 1e300]) {
      await expect422(h.params({ [name]: bad }), [[name, h.MSG.id]]);
    }
  });

  it("rejects unknown ids, each naming its field", async () => {
    await expect422(h.params({ area_id: 999 }), [["area_id", h.MSG.noArea]]);
    await expect422(h.params({ postalcode_id: "999" }), [["postalcode_id", h.MSG.noPostal]]);
    await expect422(h.params({ salesagent_id: 999 }), [["salesagent_id", h.MSG.noAgent]]);
  });

  it("rejects a gst_treatment other than Registered or Unregistered", async () => {
    for (const bad of ["Composition", "registered-ish", "", 1]) {
      await expect422(h.params({ gst_treatment: bad }), [["gst_treatment", h.MSG.treatment]]);
    }
  });

  it("requires a gstin when Registered", async () => {
    await expect422(h.params({ gst_treatment: "Registered" }), [["gstin", h.MSG.gstinRequired]]);
    await expect422(h.params({ gst_treatment: "registered", gstin: "  " }), [["gstin", h.MSG.gstinRequired]]);
  });

  it.each([
    ["27AAPFU0939F1YV", "gstinPattern"],
    ["27AAPF00939F1ZV", "gstinPattern"],
    ["47AAPFU0939F1ZV", "gstinPattern"],
    ["00AAPFU0939F1ZB", "gstinState"],
    ["39AAPFU0939F1ZQ", "gstinState"],
    ["27AAPFU0939F1ZW", "gstinChecksum"],
    ["27aapfu0939f1zw", "gstinChecksum"],
    ["27AAPFU0939F1Z", "gstinLength"],
  ] as const)("rejects the GSTIN %j when Registered (%s)", async (gstin, rule) => {
    await expect422(h.params({ gst_treatment: "Registered", gstin }), [["gstin", h.MSG[rule]]]);
  });

  it("reports a repeated query or form parameter", async () => {
    const query = `${h.PATH}?${h.form(h.params())}&area_id=2`;
    const res = await call(query, { method: "POST", key });
    expect(res.body).toEqual(h.validation([["area_id", h.MSG.once]]));
    const formRes = await h.post(`${h.form(h.params())}&company_name=Again`, { headers: h.FORM });
    expect(formRes.body).toEqual(h.validation([["company_name", h.MSG.once]]));
  });

  it("reports a name repeated a thousand times in a form body as one repeat, and ignores unknown names repeated as often (the body within 16 KiB)", async () => {
    const repeats = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name}=${i}`).join("&");
    const before = await h.counts();
    const urlencoded = await h.post(`${h.form(h.params())}&${repeats("address", 1000)}&${repeats("x", 500)}`, {
      headers: h.FORM,
    });
    expect({ status: urlencoded.status, body: urlencoded.body }).toEqual({
      status: 422,
      body: h.validation([["address", h.MSG.once]]),
    });

    const boundary = "many-repeats";
    const part = (name: string, value: unknown) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`;
    const multipart =
      Object.entries(h.params())
        .map(([name, value]) => part(name, value))
        .join("") +
      Array.from({ length: 100 }, (_, i) => part("area_id", i) + part("unknown", i)).join("") +
      `--${boundary}--\r\n`;
    const res = await h.post(multipart, { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: h.validation([["area_id", h.MSG.once]]),
    });
    expect(await h.counts()).toEqual(before);

    // Unknown names repeated as often change nothing: the customer is made.
    const made = await h.post(`${h.form(h.params())}&${repeats("unknown", 1000)}`, { headers: h.FORM });
    expect(made.status).toBe(201);
  });

  it("reports every failure together in one 422", async () => {
    await expect422(
      {
        company_name: "   ",
        mobile_number: "5820000001",
        contactpersons_name: "n".repeat(256),
        address: 12,
        area_id: 999,
        postalcode_id: 0,
        gst_treatment: "Registered",
        gstin: "27AAPFU0939F1ZW",
        salesagent_id: 998,
      },
      [
        ["company_name", h.MSG.empty],
        ["mobile_number", h.MSG.mobileFirst],
        ["contactpersons_name", h.MSG.long],
        ["address", h.MSG.string],
        ["area_id", h.MSG.noArea],
        ["postalcode_id", h.MSG.id],
        ["gstin", h.MSG.gstinChecksum],
        ["salesagent_id", h.MSG.noAgent],
        ["Idempotency-Key", h.MSG.idemKey],
      ],
      { headers: { "Idempotency-Key": "x".repeat(256) } },
    );
  });

  it("rejects an Idempotency-Key that is not 1 to 255 printable ASCII characters", async () => {
    for (const bad of ["x".repeat(256), "caf\u00e9", "a\u0001b"]) {
      await expect422(h.params(), [["Idempotency-Key", h.MSG.idemKey]], { headers: { "Idempotency-Key": bad } });
    }
  });

  it("answers 422, not 409, when a request that would conflict is also invalid", async () => {
    // The existing customer's number in another form, but the request is invalid: 422, not 409.
    await expect422(h.params({ mobile_number: "09820000001", area_id: 999 }), [["area_id", h.MSG.noArea]]);
  });
});

describe("bodies", () => {
  async function expectBadRequest(body: string, headers: Record<string, string>, description: string) {
    const before = await h.counts();
    const res = await h.post(body, { headers, query: h.stringParams(h.params()) });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: errorEnvelope(400, "BAD_REQUEST", description, h.PATH),
    });
    expect(await h.counts()).toEqual(before);
  }

  const JSON_TYPE = { "Content-Type": "application/json" };
  const NOT_JSON = "The request body is not valid JSON";
  const NOT_AN_OBJECT = "The JSON body must be an object whose members are the parameters";
  const BAD_PERCENT = "The form body is not valid application/x-www-form-urlencoded (bad percent-encoding)";
  it.each([
    ["malformed JSON", '{"company_name": "x",', JSON_TYPE, NOT_JSON],
    ["malformed JSON", "company_name=x", { "Content-Type": "application/json; charset=utf-8" }, NOT_JSON],
    ["JSON that is not an object", "[1,2]", JSON_TYPE, NOT_AN_OBJECT],
    ["JSON that is not an object", '"text"', JSON_TYPE, NOT_AN_OBJECT],
    ["JSON that is not an object", "42", JSON_TYPE, NOT_AN_OBJECT],
    ["JSON that is not an object", "null", JSON_TYPE, NOT_AN_OBJECT],
    ["a malformed form body", "company_name=%E0%A4%A&address=x", h.FORM, BAD_PERCENT],
    ["a malformed form body", "company_name=%zz", h.FORM, BAD_PERCENT],
    [
      "a malformed form body",
      "--nope\r\n",
      { "Content-Type": "multipart/form-data; boundary=xyz" },
      "The form body is not valid multipart/form-data",
    ],
  ])("answers 400 for %s: %j", async (_kind, body, headers, description) => {
    await expectBadRequest(body, headers, description);
  });

  it("answers 400 for a body of an unsupported type rather than ignoring it", async () => {
    await expectBadRequest(
      JSON.stringify(h.params()),
      { "Content-Type": "text/plain" },
      "Unsupported Content-Type text/plain: send application/json, application/x-www-form-urlencoded or multipart/form-data",
    );
  });

  it("answers 413 for a body over 16 KiB and takes one of exactly 16 KiB", async () => {
    const before = await h.counts();
    const base = JSON.stringify({ ...h.params(), padding: "" });
    const exact = JSON.stringify({ ...JSON.parse(base), padding: "p".repeat(16384 - base.length) });
    expect(new TextEncoder().encode(exact).length).toBe(16384);
    const ok = await h.post(exact, { headers: { "Content-Type": "application/json" } });
    expect(ok.status).toBe(201);

    const over = JSON.stringify({ ...h.params(), padding: "p".repeat(16384 - base.length + 1) });
    const res = await h.post(over, { headers: { "Content-Type": "application/json" } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: errorEnvelope(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16384 bytes", h.PATH),
    });
    expect((await h.counts()).c).toBe(before.c + 1);
  });

  it("answers 413 from a declared Content-Length alone, and takes a declared 16 KiB", async () => {
    const before = await h.counts();
    const base = JSON.stringify({ ...h.params(), padding: "" });
    const exact = JSON.stringify({ ...JSON.parse(base), padding: "p".repeat(16384 - base.length) });
    const ok = await h.post(exact, { headers: { "Content-Type": "application/json", "Content-Length": "16384" } });
    expect(ok.status).toBe(201);
    const over = JSON.stringify({ ...h.params(), padding: "p".repeat(16384 - base.length + 1) });
    const res = await h.post(over, { headers: { "Content-Type": "application/json", "Content-Length": "16385" } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: errorEnvelope(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16384 bytes", h.PATH),
    });
    expect((await h.counts()).c).toBe(before.c + 1);
  });
});

describe("authentication", () => {
  it("comes before everything else: no key with a bad body and bad parameters is a 401", async () => {
    for (const [body, headers] of [
      ["{broken", { "Content-Type": "application/json" }],
      [JSON.stringify({ area_id: "x" }), { "Content-Type": "application/json" }],
      ["x".repeat(20000), { "Content-Type": "application/json" }],
    ] as const) {
      const res = await call(h.PATH, { method: "POST", body, headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("AUTHENTICATION_ERROR");
      expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
    }
  });
});

describe("conflicts", () => {
  it("answers 409 for a mobile number that an existing customer has in another format, naming it", async () => {
    const before = await h.counts();
    for (const mobile of ["09820000001", "9820000001", "+91-98200-00001", "(982) 000.0001"]) {
      const res = await h.post(h.params({ mobile_number: mobile }));
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: errorEnvelope(409, "CONFLICT", "A customer with this mobile number exists: customer 1", h.PATH, {
          customer_id: 1,
        }),
      });
    }
    expect(await h.counts()).toEqual(before);
  });

  it("lets exactly one of ten racing creates with one number succeed; the rest get 409 naming it", async () => {
    const before = await h.counts();
    const mobile = h.freshMobile();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.post(h.params({ company_name: `Racer ${i}`, mobile_number: i % 2 ? mobile : `+91 ${mobile}` })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!.body.data.id;
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toEqual(
        errorEnvelope(409, "CONFLICT", `A customer with this mobile number exists: customer ${winner}`, h.PATH, {
          customer_id: winner,
        }),
      );
    }
    expect(await h.counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });
  });
});
