// POST /customers/create through HTTP into the worker, on real local D1 and KV (SPEC.md section 5).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callWithEnv, expectNoLeak } from "./helpers/faults.ts";
import { call, errorEnvelope } from "./helpers/http.ts";
import { makeKey } from "./helpers/keys.ts";
import { importDataset, type Dataset } from "../src/import/index.ts";
import { createBody, createdCustomer } from "./fixtures/create.ts";
import { dataset } from "./fixtures/dataset.ts";
import { expectedArea } from "./fixtures/expected.ts";

const PATH = "/api/customers/create";
let key: string;

/** Reference data and one existing customer, in the dataset format, through the real importer. */
const DATASET = {
  states: dataset.states,
  cities: dataset.cities,
  areas: [
    // Andheri East and Koramangala.
    ...dataset.areas.slice(0, 2),
    // 3 is deleted and 4 renamed by the race tests: no other record refers to them.
    { id: 3, name: "Spare", area_code: "SP", city_id: 1 },
    { id: 4, name: "Spare 2", area_code: "S2", city_id: 1 },
  ],
  postal_codes: dataset.postal_codes.slice(0, 2),
  sales_agents: [
    { id: 1, first_name: "Asha", last_name: "Rao", mobile_number: "9876543210", email: "asha@example.com", avatar: null, postalcode_ids: [1] },
    { id: 2, first_name: "Vikram", last_name: "Shetty", mobile_number: "9876500002", email: null, avatar: null, postalcode_ids: [2] },
  ],
  customers: [
    {
      id: 1,
      contact_person_name: "Existing",
      company_name: "Existing Co",
      display_name: "Existing Co",
      email: "",
      contactperson_number: "+91 98200 00001",
      company_phone: null,
      gst_treatment: "Unregistered",
      gstin: "",
      customer_code: null,
      status: "Active",
      approval: "accepted",
      salesagent_id: 1,
      address: { addressline1: "1 Old Road", addressline2: "", area_id: 1, postalcode_id: 1 },
    },
  ],
};

beforeAll(async () => {
  await importDataset(env.DB, DATASET as Dataset);
  key = (await makeKey()).secret;
});

const KORAMANGALA = expectedArea(2, DATASET);

let serial = 100;
/** A mobile number no other test uses. */
function freshMobile(): string {
  serial++;
  return `97${String(serial).padStart(8, "0")}`;
}

function params(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...createBody(freshMobile()), ...overrides };
}

function post(body: unknown, options: { query?: Record<string, string>; headers?: Record<string, string>; key?: string } = {}) {
  const qs = options.query ? `?${new URLSearchParams(options.query)}` : "";
  return call(`${PATH}${qs}`, { method: "POST", key: options.key ?? key, body, headers: options.headers });
}

function form(values: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

async function counts() {
  const row = await env.DB.prepare(
    "select (select count(*) from customers) c, (select count(*) from customer_addresses) a, (select count(*) from idempotency_keys) k",
  ).first<{ c: number; a: number; k: number }>();
  return row!;
}

/**
 * The real D1, except that every batch of a request's sessions goes through `hook`, which gets the
 * real batch to run and the batch's number within its session (1 = the lookup, 2 = the write).
 */
function interceptBatches(hook: (real: () => Promise<D1Result[]>, nth: number) => Promise<D1Result[]>): D1Database {
  const passThrough = (target: object, prop: string | symbol) => {
    const value = Reflect.get(target, prop, target);
    return typeof value === "function" ? value.bind(target) : value;
  };
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop !== "withSession") return passThrough(target, prop);
      return (constraint?: string) => {
        const session = target.withSession(constraint);
        let nth = 0;
        return new Proxy(session, {
          get(s, p) {
            if (p !== "batch") return passThrough(s, p);
            return (statements: D1PreparedStatement[]) => hook(() => s.batch(statements), ++nth);
          },
        });
      };
    },
  });
}

/** Holds each request's lookup until `n` requests have made theirs: then all of them write at once. */
function lookupBarrier(n: number): D1Database {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return interceptBatches(async (real, nth) => {
    if (nth !== 1) return real();
    const result = await real();
    if (++arrived === n) release();
    await all;
    return result;
  });
}

function roundTrips(res: { headers: Headers }): string | undefined {
  return /d1;dur=[\d.]+;desc="(\d+) round trips"/.exec(res.headers.get("Server-Timing") ?? "")?.[1];
}

function validation(fields: Array<[string, string]>, path = PATH) {
  return errorEnvelope(422, "VALIDATION_ERROR", fields.map(([f, m]) => `${f} ${m}`).join("; "), path, {
    fields: fields.map(([field, message]) => ({ field, message })),
  });
}

const MSG = {
  required: "is required",
  empty: "must not be empty",
  long: "must be at most 255 characters",
  string: "must be a string",
  once: "must be given once, as a single value",
  mobile: "must be a 10-digit mobile number (spaces, hyphens, dots, brackets and a +91 or 0 prefix are allowed)",
  mobileFirst: "must be an Indian mobile number: its 10 digits start with 6, 7, 8 or 9",
  mobileControl: "must not contain control characters or line breaks (tab, CR, LF, U+2028, U+2029 and the like)",
  mobileLong: "must be at most 32 characters",
  id: "must be a positive integer",
  noArea: "names no area: no area has this id",
  noPostal: "names no postal code: no postal code has this id",
  noAgent: "names no sales agent: no sales agent has this id",
  treatment: "must be Registered or Unregistered",
  gstinRequired: "is required when gst_treatment is Registered",
  gstinPattern: "must match the GSTIN pattern: 2-digit state code, 10-character PAN, entity character, Z, check character",
  gstinState: "must start with a state code from 01 to 38",
  gstinChecksum: "has a wrong check character (the 15th character)",
  gstinLength: "must be 15 characters",
  idemKey: "must be 1 to 255 printable ASCII characters",
};

describe("creating", () => {
  it("creates from a JSON body: 201 with the whole customer, listed by GET /customers and found by GET /orders at once", async () => {
    const before = await counts();
    const res = await post(params({ mobile_number: "+91 97000 11111", gst_treatment: "Registered", gstin: "27AAPFU0939F1ZV" }));
    expect(res.status).toBe(201);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    const id = res.body.data.id;
    expect(Number.isInteger(id) && id > 1).toBe(true);
    const customer = createdCustomer(
      id,
      createBody("+91 97000 11111", { gst_treatment: "Registered", gstin: "27AAPFU0939F1ZV" }),
      DATASET,
    );
    expect(res.body).toEqual({ data: customer });
    // Two round trips: the lookup batch and the write batch.
    expect(res.headers.get("Server-Timing")).toMatch(/d1;dur=[\d.]+;desc="2 round trips"/);
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });

    const listed = await call("/api/customers?count=100", { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.customers.find((c: { id: number }) => c.id === id)).toEqual(customer);

    const orders = await call("/api/orders?phone_number=9700011111", { key });
    expect(orders.status).toBe(200);
    expect(orders.body.data.orders).toEqual([]);
    expect(orders.body.data.pagination.total).toBe(0);
  });

  it("is served at the root path too", async () => {
    const res = await call("/customers/create", { method: "POST", key, body: params() });
    expect(res.status).toBe(201);
  });

  it("takes the parameters from the query string, as published", async () => {
    const p = params({ mobile_number: "098200-55555", area_id: 2, postalcode_id: 2, salesagent_id: 2 });
    const res = await post(undefined, { query: Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)])) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      contactperson_number: "098200-55555",
      address: { addressline1: "12 MG Road", addressline2: "", area: KORAMANGALA, postalcode: { id: 2, code: "560034" } },
    });
    const stored = await env.DB.prepare("select phone_key, salesagent_id from customers where id = ?").bind(res.body.data.id).first();
    expect(stored).toEqual({ phone_key: "9820055555", salesagent_id: 2 });
  });

  it("takes the parameters from a urlencoded form body", async () => {
    const res = await post(form(params({ company_name: "Form & Co", mobile_number: "(982) 005.6666" })), { headers: FORM });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ company_name: "Form & Co", display_name: "Form & Co", contactperson_number: "(982) 005.6666" });
  });

  it("takes the parameters from a multipart form body", async () => {
    const boundary = "create-test-boundary";
    const body =
      Object.entries(params({ company_name: "Multipart Co" }))
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`)
        .join("") + `--${boundary}--\r\n`;
    const res = await post(body, { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } });
    expect(res.status).toBe(201);
    expect(res.body.data.company_name).toBe("Multipart Co");
  });

  it("lets a body value win over a query value, fills in from the query and ignores unknown parameters", async () => {
    const mobile = freshMobile();
    const res = await post(
      { company_name: "Body Co", mobile_number: mobile, unknown: "x", email: "ignored@example.com", gst_treatment: "unregistered" },
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
    const res = await post(form({ company_name: "Form Wins" }), { headers: FORM, query: { ...stringParams(params()), company_name: "Query" } });
    expect(res.status).toBe(201);
    expect(res.body.data.company_name).toBe("Form Wins");
  });

  it("treats JSON null as not given", async () => {
    const res = await post(params({ gstin: null, company_name: null }), { query: { company_name: "From Query" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ company_name: "From Query", gstin: "" });
  });

  it("reads an empty body (any Content-Type) as no body", async () => {
    const res = await post("", { query: stringParams(params()), headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(201);
    const spaces = await post("  \n", { query: stringParams(params()), headers: { "Content-Type": "application/json" } });
    expect(spaces.status).toBe(201);
  });

  it("trims the required strings and stores them trimmed", async () => {
    const res = await post(params({ company_name: "  Trim Co \t", contactpersons_name: " Ravi ", address: "\n 5 Link Road " }));
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
    const res = await post(params({ company_name: long, contactpersons_name: "x".repeat(255), address: "y".repeat(255) }));
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
    const res = await post(params({ mobile_number: mobile }));
    expect(res.status).toBe(201);
    expect(res.body.data.contactperson_number).toBe(mobile);
    const row = await env.DB.prepare("select phone_key from customers where id = ?").bind(res.body.data.id).first();
    expect(row).toEqual({ phone_key: phoneKey });
  });

  it("accepts ids as JSON numbers and as digit strings", async () => {
    const res = await post(params({ area_id: "2", postalcode_id: 2, salesagent_id: "02" }));
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
    const res = await post(params({ gst_treatment: given, gstin: "29AAGCB7383J1Z4" }));
    expect(res.status).toBe(201);
    expect(res.body.data.gst_treatment).toBe(canonical);
    expect(res.body.data.gstin).toBe(canonical === "Registered" ? "29AAGCB7383J1Z4" : "");
  });

  it("accepts a lowercase GSTIN and stores it upper-cased", async () => {
    const res = await post(params({ gst_treatment: "Registered", gstin: " 27aapfu0939f1zv " }));
    expect(res.status).toBe(201);
    expect(res.body.data.gstin).toBe("27AAPFU0939F1ZV");
    const row = await env.DB.prepare("select gstin from customers where id = ?").bind(res.body.data.id).first();
    expect(row).toEqual({ gstin: "27AAPFU0939F1ZV" });
  });

  it("ignores any gstin when Unregistered and stores \"\"", async () => {
    for (const gstin of ["27AAPFU0939F1ZV", "garbage", 42, ["x"]]) {
      const res = await post(params({ gst_treatment: "Unregistered", gstin }));
      expect(res.status).toBe(201);
      expect(res.body.data.gstin).toBe("");
    }
  });
});

function stringParams(p: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)]));
}

describe("validation", () => {
  async function expect422(body: unknown, fields: Array<[string, string]>, options: Parameters<typeof post>[1] = {}) {
    const before = await counts();
    const res = await post(body, options);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: validation(fields) });
    expect(await counts()).toEqual(before);
  }

  it("lists every missing parameter in one 422, in the published order", async () => {
    await expect422({}, [
      ["company_name", MSG.required],
      ["mobile_number", MSG.required],
      ["contactpersons_name", MSG.required],
      ["address", MSG.required],
      ["area_id", MSG.required],
      ["postalcode_id", MSG.required],
      ["gst_treatment", MSG.required],
      ["salesagent_id", MSG.required],
    ]);
  });

  it.each(["company_name", "mobile_number", "contactpersons_name", "address", "area_id", "postalcode_id", "gst_treatment", "salesagent_id"])(
    "requires %s",
    async (name) => {
      const p = params();
      delete p[name];
      await expect422(p, [[name, MSG.required]]);
    },
  );

  it.each(["company_name", "contactpersons_name", "address"])("rejects %s empty after trimming", async (name) => {
    await expect422(params({ [name]: "  \t " }), [[name, MSG.empty]]);
    await expect422(params({ [name]: "" }), [[name, MSG.empty]]);
  });

  it("rejects mobile_number empty after trimming spaces (a tab is a control character: see below)", async () => {
    await expect422(params({ mobile_number: "    " }), [["mobile_number", MSG.empty]]);
    await expect422(params({ mobile_number: "" }), [["mobile_number", MSG.empty]]);
  });

  it.each(["company_name", "contactpersons_name", "address"])("rejects %s over 255 characters", async (name) => {
    await expect422(params({ [name]: "x".repeat(256) }), [[name, MSG.long]]);
    await expect422(params({ [name]: "😀".repeat(256) }), [[name, MSG.long]]);
  });

  it.each(["company_name", "contactpersons_name", "address", "mobile_number"])("rejects %s that is not a string", async (name) => {
    await expect422(params({ [name]: 9820000001 }), [[name, MSG.string]]);
    await expect422(params({ [name]: { a: 1 } }), [[name, MSG.string]]);
  });

  it.each([
    ["982000001", MSG.mobile], // 9 digits
    ["19820000001", MSG.mobile], // 11 digits not starting 0
    ["98200000012", MSG.mobile],
    ["9820000001x", MSG.mobile], // letters
    ["abcdefghij", MSG.mobile],
    ["+92 98200 00001", MSG.mobile],
    ["5820000001", MSG.mobileFirst], // first digit 5
    ["+91 58200 00001", MSG.mobileFirst],
    ["0123456789", MSG.mobileFirst],
  ])("rejects the mobile number %j", async (mobile, message) => {
    await expect422(params({ mobile_number: mobile }), [["mobile_number", message]]);
  });

  it.each(["area_id", "postalcode_id", "salesagent_id"])("rejects %s that is not a positive integer", async (name) => {
    for (const bad of [1.5, "1.5", "abc", 0, "0", -1, "-1", true, [1], {}, "", " 1", "1e3", 1e300]) {
      await expect422(params({ [name]: bad }), [[name, MSG.id]]);
    }
  });

  it("rejects unknown ids, each naming its field", async () => {
    await expect422(params({ area_id: 999 }), [["area_id", MSG.noArea]]);
    await expect422(params({ postalcode_id: "999" }), [["postalcode_id", MSG.noPostal]]);
    await expect422(params({ salesagent_id: 999 }), [["salesagent_id", MSG.noAgent]]);
  });

  it("rejects a gst_treatment other than Registered or Unregistered", async () => {
    for (const bad of ["Composition", "registered-ish", "", 1]) {
      await expect422(params({ gst_treatment: bad }), [["gst_treatment", MSG.treatment]]);
    }
  });

  it("requires a gstin when Registered", async () => {
    await expect422(params({ gst_treatment: "Registered" }), [["gstin", MSG.gstinRequired]]);
    await expect422(params({ gst_treatment: "registered", gstin: "  " }), [["gstin", MSG.gstinRequired]]);
  });

  it.each([
    ["27AAPFU0939F1YV", MSG.gstinPattern],
    ["27AAPF00939F1ZV", MSG.gstinPattern],
    ["47AAPFU0939F1ZV", MSG.gstinPattern],
    ["00AAPFU0939F1ZB", MSG.gstinState],
    ["39AAPFU0939F1ZQ", MSG.gstinState],
    ["27AAPFU0939F1ZW", MSG.gstinChecksum],
    ["27aapfu0939f1zw", MSG.gstinChecksum],
    ["27AAPFU0939F1Z", MSG.gstinLength],
  ])("rejects the GSTIN %j when Registered", async (gstin, message) => {
    await expect422(params({ gst_treatment: "Registered", gstin }), [["gstin", message]]);
  });

  it("reports a repeated query or form parameter", async () => {
    const query = `${PATH}?${form(params())}&area_id=2`;
    const res = await call(query, { method: "POST", key });
    expect(res.body).toEqual(validation([["area_id", MSG.once]]));
    const formRes = await post(`${form(params())}&company_name=Again`, { headers: FORM });
    expect(formRes.body).toEqual(validation([["company_name", MSG.once]]));
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
        ["company_name", MSG.empty],
        ["mobile_number", MSG.mobileFirst],
        ["contactpersons_name", MSG.long],
        ["address", MSG.string],
        ["area_id", MSG.noArea],
        ["postalcode_id", MSG.id],
        ["gstin", MSG.gstinChecksum],
        ["salesagent_id", MSG.noAgent],
        ["Idempotency-Key", MSG.idemKey],
      ],
      { headers: { "Idempotency-Key": "x".repeat(256) } },
    );
  });

  it("rejects an Idempotency-Key that is not 1 to 255 printable ASCII characters", async () => {
    for (const bad of ["x".repeat(256), "caf\u00e9", "a\u0001b"]) {
      await expect422(params(), [["Idempotency-Key", MSG.idemKey]], { headers: { "Idempotency-Key": bad } });
    }
  });

  it("answers 422, not 409, when a request that would conflict is also invalid", async () => {
    // The existing customer's number in another form, but the request is invalid: 422, not 409.
    await expect422(params({ mobile_number: "09820000001", area_id: 999 }), [["area_id", MSG.noArea]]);
  });
});

describe("mobile_number: control characters, then trimming, then 32 characters at most", () => {
  /** The same parameters as a JSON body, a urlencoded form body and a query string. */
  const WAYS = {
    json: (p: Record<string, unknown>, headers?: Record<string, string>) => post(p, { headers }),
    form: (p: Record<string, unknown>, headers?: Record<string, string>) => post(form(p), { headers: { ...FORM, ...headers } }),
    query: (p: Record<string, unknown>, headers?: Record<string, string>) => post(undefined, { query: stringParams(p), headers }),
  };
  type Way = keyof typeof WAYS;
  const ways = Object.keys(WAYS) as Way[];

  /** The 201 body of params() with this stored number. */
  function createdBody(id: number, number: string) {
    return { data: createdCustomer(id, createBody(number), DATASET) };
  }

  async function expectCreated(way: Way, sent: string, stored: string) {
    const res = await WAYS[way](params({ mobile_number: sent }));
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: createdBody(res.body?.data?.id, stored) });
    expect(res.headers.get("Content-Type")).toBe("application/json");
    const row = await env.DB.prepare("select contactperson_number, phone_key from customers where id = ?").bind(res.body.data.id).first();
    expect(row).toEqual({ contactperson_number: stored, phone_key: normalizedOf(stored) });
    return res;
  }

  async function expect422(way: Way, sent: string, message: string) {
    const before = await counts();
    const res = await WAYS[way](params({ mobile_number: sent }));
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: validation([["mobile_number", message]]) });
    expect(await counts()).toEqual(before);
  }

  const normalizedOf = (n: string) => n.replace(/[\s\-.()[\]]/g, "").replace(/^\+/, "").replace(/^91(?=\d{10}$)/, "").replace(/^0(?=\d{10}$)/, "");

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
        await expect422(way, sent, MSG.mobileControl);
      });

      it("is trimmed of spaces, stored and served trimmed (inner spacing as given)", async () => {
        const number = freshMobile();
        const spaced = `+91 ${number.slice(0, 5)} ${number.slice(5)}`;
        await expectCreated(way, `   ${spaced}  `, spaced);
      });

      it("takes 15,000 spaces around a number: stored as the number alone", async () => {
        const number = freshMobile();
        await expectCreated(way, `${" ".repeat(7_500)}${number}${" ".repeat(7_500)}`, number);
      });

      it("takes 32 characters after trimming, and refuses 33", async () => {
        const number = freshMobile();
        const at32 = `+91${" ".repeat(19)}${number}`;
        expect([...at32].length).toBe(32);
        await expectCreated(way, `  ${at32}  `, at32);
        await expect422(way, `+91${" ".repeat(20)}${freshMobile()}`, MSG.mobileLong);
        await expect422(way, `${number.slice(0, 5)}${" ".repeat(15_000)}${number.slice(5)}`, MSG.mobileLong);
        await expect422(way, `${"😀".repeat(33)}`, MSG.mobileLong);
      });
    });
  }

  it("checks control characters first, then the length, then the number", async () => {
    await expect422("json", `${"x".repeat(40)}\n`, MSG.mobileControl);
    await expect422("json", "x".repeat(33), MSG.mobileLong);
    await expect422("json", "x".repeat(32), MSG.mobile);
  });

  it("is fingerprinted for Idempotency-Key as trimmed: padding is the same request", async () => {
    const number = freshMobile();
    const headers = { "Idempotency-Key": `trimmed-${number}` };
    const first = await WAYS.json(params({ mobile_number: number }), headers);
    expect({ status: first.status, body: first.body }).toEqual({ status: 201, body: createdBody(first.body.data.id, number) });
    for (const way of ways) {
      const again = await WAYS[way](params({ mobile_number: `  ${number}   ` }), headers);
      expect({ status: again.status, text: again.text, replayed: again.headers.get("Idempotent-Replayed") }).toEqual({
        status: 201,
        text: first.text,
        replayed: "true",
      });
    }
  });
});

describe("bodies", () => {
  async function expectBadRequest(body: string, headers: Record<string, string>, description: string) {
    const before = await counts();
    const res = await post(body, { headers, query: stringParams(params()) });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errorEnvelope(400, "BAD_REQUEST", description, PATH) });
    expect(await counts()).toEqual(before);
  }

  it("answers 400 for malformed JSON", async () => {
    await expectBadRequest('{"company_name": "x",', { "Content-Type": "application/json" }, "The request body is not valid JSON");
    await expectBadRequest("company_name=x", { "Content-Type": "application/json; charset=utf-8" }, "The request body is not valid JSON");
  });

  it("answers 400 for JSON that is not an object", async () => {
    const description = "The JSON body must be an object whose members are the parameters";
    for (const body of ["[1,2]", '"text"', "42", "null"]) await expectBadRequest(body, { "Content-Type": "application/json" }, description);
  });

  it("answers 400 for a malformed form body", async () => {
    await expectBadRequest(
      "company_name=%E0%A4%A&address=x",
      FORM,
      "The form body is not valid application/x-www-form-urlencoded (bad percent-encoding)",
    );
    await expectBadRequest("company_name=%zz", FORM, "The form body is not valid application/x-www-form-urlencoded (bad percent-encoding)");
    await expectBadRequest("--nope\r\n", { "Content-Type": "multipart/form-data; boundary=xyz" }, "The form body is not valid multipart/form-data");
  });

  it("answers 400 for a body of an unsupported type rather than ignoring it", async () => {
    await expectBadRequest(
      JSON.stringify(params()),
      { "Content-Type": "text/plain" },
      "Unsupported Content-Type text/plain: send application/json, application/x-www-form-urlencoded or multipart/form-data",
    );
  });

  it("answers 413 for a body over 16 KiB and takes one of exactly 16 KiB", async () => {
    const before = await counts();
    const base = JSON.stringify({ ...params(), padding: "" });
    const exact = JSON.stringify({ ...JSON.parse(base), padding: "p".repeat(16384 - base.length) });
    expect(new TextEncoder().encode(exact).length).toBe(16384);
    const ok = await post(exact, { headers: { "Content-Type": "application/json" } });
    expect(ok.status).toBe(201);

    const over = JSON.stringify({ ...params(), padding: "p".repeat(16384 - base.length + 1) });
    const res = await post(over, { headers: { "Content-Type": "application/json" } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: errorEnvelope(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16384 bytes", PATH),
    });
    expect((await counts()).c).toBe(before.c + 1);
  });

  it("answers 413 from a declared Content-Length alone, and takes a declared 16 KiB", async () => {
    const before = await counts();
    const base = JSON.stringify({ ...params(), padding: "" });
    const exact = JSON.stringify({ ...JSON.parse(base), padding: "p".repeat(16384 - base.length) });
    const ok = await post(exact, { headers: { "Content-Type": "application/json", "Content-Length": "16384" } });
    expect(ok.status).toBe(201);
    const over = JSON.stringify({ ...params(), padding: "p".repeat(16384 - base.length + 1) });
    const res = await post(over, { headers: { "Content-Type": "application/json", "Content-Length": "16385" } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: errorEnvelope(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16384 bytes", PATH),
    });
    expect((await counts()).c).toBe(before.c + 1);
  });
});

describe("authentication", () => {
  it("comes before everything else: no key with a bad body and bad parameters is a 401", async () => {
    for (const [body, headers] of [
      ["{broken", { "Content-Type": "application/json" }],
      [JSON.stringify({ area_id: "x" }), { "Content-Type": "application/json" }],
      ["x".repeat(20000), { "Content-Type": "application/json" }],
    ] as const) {
      const res = await call(PATH, { method: "POST", body, headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("AUTHENTICATION_ERROR");
      expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
    }
  });
});

describe("conflicts", () => {
  it("answers 409 for a mobile number that an existing customer has in another format, naming it", async () => {
    const before = await counts();
    for (const mobile of ["09820000001", "9820000001", "+91-98200-00001", "(982) 000.0001"]) {
      const res = await post(params({ mobile_number: mobile }));
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: errorEnvelope(409, "CONFLICT", "A customer with this mobile number exists: customer 1", PATH, { customer_id: 1 }),
      });
    }
    expect(await counts()).toEqual(before);
  });

  it("lets exactly one of ten racing creates with one number succeed; the rest get 409 naming it", async () => {
    const before = await counts();
    const mobile = freshMobile();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(params({ company_name: `Racer ${i}`, mobile_number: i % 2 ? mobile : `+91 ${mobile}` }))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!.body.data.id;
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toEqual(
        errorEnvelope(409, "CONFLICT", `A customer with this mobile number exists: customer ${winner}`, PATH, { customer_id: winner }),
      );
    }
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });
  });
});

describe("races decided inside the write batch", () => {
  it("gives one 201 and nine 409s naming the winner when ten creates with one number all pass the lookup", async () => {
    const before = await counts();
    const mobile = freshMobile();
    const db = lookupBarrier(10);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        callWithEnv({ DB: db }, PATH, { method: "POST", key, body: params({ company_name: `Racer ${i}`, mobile_number: mobile }) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!;
    expect(roundTrips(winner)).toBe("2");
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toEqual(
        errorEnvelope(409, "CONFLICT", `A customer with this mobile number exists: customer ${winner.body.data.id}`, PATH, {
          customer_id: winner.body.data.id,
        }),
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
    const results = await Promise.all(Array.from({ length: 5 }, () => callWithEnv({ DB: db }, PATH, { method: "POST", key, body: p, headers })));
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
    const results = await Promise.all(Array.from({ length: 4 }, () => callWithEnv({ DB: db }, PATH, { method: "POST", key, body: params(), headers })));
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

describe("Idempotency-Key", () => {
  it("replays the first answer for the same key and parameters, and creates nothing", async () => {
    const p = params();
    const headers = { "Idempotency-Key": "order-app-7f3a" };
    const before = await counts();
    const first = await post(p, { headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });

    const again = await post(p, { headers });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Content-Type")).toBe("application/json");

    // The same parameters sent another way (query, ids as text, other case, padding) are the same request.
    const sameOtherWay = await post(undefined, {
      headers,
      query: stringParams({ ...p, gst_treatment: "UNREGISTERED", company_name: ` ${p.company_name} `, gstin: "ignored" }),
    });
    expect(sameOtherWay.status).toBe(201);
    expect(sameOtherWay.text).toBe(first.text);
    expect(sameOtherWay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("answers 409 for the same key with other parameters", async () => {
    const headers = { "Idempotency-Key": "reused-key" };
    const first = await post(params(), { headers });
    expect(first.status).toBe(201);
    const before = await counts();
    const description = "This Idempotency-Key was used with other parameters within the last 24 hours; send a new key for a new request";
    for (const other of [params(), { company_name: "broken" }]) {
      const res = await post(other, { headers });
      expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: errorEnvelope(409, "CONFLICT", description, PATH) });
    }
    expect(await counts()).toEqual(before);
  });

  it("stores only a 201: a key whose request failed can be used again once the request is fixed", async () => {
    const headers = { "Idempotency-Key": "first-try-failed" };
    const p = params();
    const failed = await post({ ...p, area_id: 999 }, { headers });
    expect(failed.status).toBe(422);
    const conflict = await post({ ...p, mobile_number: "9820000001" }, { headers });
    expect(conflict.status).toBe(409);
    const fixed = await post(p, { headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("treats a key older than 24 hours as new", async () => {
    const headers = { "Idempotency-Key": "day-old" };
    const first = await post(params(), { headers });
    expect(first.status).toBe(201);
    await env.DB.prepare("update idempotency_keys set created_at = created_at - 86400001 where key like '%:day-old'").run();
    const before = await counts();
    const second = await post(params({ company_name: "A Day Later" }), { headers });
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBeNull();
    expect(second.body.data.company_name).toBe("A Day Later");
    // The stale record was replaced, not added to.
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k });
    const replayed = await post(params({ company_name: "Other" }), { headers });
    expect(replayed.status).toBe(409);
  });

  it("prunes every stale record when it writes one", async () => {
    const first = await post(params(), { headers: { "Idempotency-Key": "old-1" } });
    const second = await post(params(), { headers: { "Idempotency-Key": "old-2" } });
    expect([first.status, second.status]).toEqual([201, 201]);
    await env.DB.prepare("update idempotency_keys set created_at = created_at - 86400001 where key like '%:old-_'").run();
    const before = await counts();
    const res = await post(params(), { headers: { "Idempotency-Key": "new-1" } });
    expect(res.status).toBe(201);
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k - 1 });
    const left = await env.DB.prepare("select count(*) n from idempotency_keys where key like '%:old-_'").first();
    expect(left).toEqual({ n: 0 });
  });

  it("scopes keys to the API key that sent them", async () => {
    const p = params();
    const headers = { "Idempotency-Key": "shared-by-chance" };
    const first = await post(p, { headers });
    expect(first.status).toBe(201);
    const otherKey = (await makeKey({ name: "other app" })).secret;
    const res = await post(p, { headers, key: otherKey });
    // Not a replay of another caller's customer: the number is simply taken.
    expect(res.status).toBe(409);
    expect(res.body.error.customer_id).toBe(first.body.data.id);
  });

  it("replays to every one of ten racing duplicates with one key, creating one customer", async () => {
    const before = await counts();
    const p = params();
    const headers = { "Idempotency-Key": "racing-duplicates" };
    const results = await Promise.all(Array.from({ length: 10 }, () => post(p, { headers })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("Idempotent-Replayed") === "true")).toHaveLength(9);
    expect(await counts()).toEqual({ c: before.c + 1, a: before.a + 1, k: before.k + 1 });
  });

  it("gives 409 to racing requests with one key and other parameters, never a 500", async () => {
    const headers = { "Idempotency-Key": "racing-different" };
    const results = await Promise.all(Array.from({ length: 6 }, () => post(params(), { headers })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});

describe("nothing half-made", () => {
  it("leaves no row when the write batch fails after the customer insert", async () => {
    await env.DB.prepare(
      "create trigger fail_address before insert on customer_addresses when new.addressline1 = 'FAULT' begin select raise(abort, 'injected fault'); end",
    ).run();
    try {
      const before = await counts();
      const mobile = freshMobile();
      const res = await post(params({ address: "FAULT", mobile_number: mobile }), { headers: { "Idempotency-Key": "fault-1" } });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body.error.status_code).toBe(res.status);
      expectNoLeak(res.text);
      expect(await counts()).toEqual(before);
      expect(await env.DB.prepare("select count(*) n from customers where phone_key = ?").bind(mobile).first()).toEqual({ n: 0 });
      // The key was not used up: the same request succeeds once the fault is gone.
      await env.DB.prepare("drop trigger fail_address").run();
      const retry = await post(params({ address: "FAULT", mobile_number: mobile }), { headers: { "Idempotency-Key": "fault-1" } });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    } finally {
      await env.DB.prepare("drop trigger if exists fail_address").run();
    }
  });

  it("leaves no row when the last statement of the write batch (storing the answer) fails", async () => {
    await env.DB.prepare(
      "create trigger fail_answer before update on idempotency_keys when new.body like '%LATE FAULT%' begin select raise(abort, 'injected fault'); end",
    ).run();
    try {
      const before = await counts();
      const res = await post(params({ company_name: "LATE FAULT" }), { headers: { "Idempotency-Key": "fault-2" } });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expectNoLeak(res.text);
      expect(await counts()).toEqual(before);
    } finally {
      await env.DB.prepare("drop trigger if exists fail_answer").run();
    }
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
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: validation([["area_id", MSG.noArea]]) });
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
