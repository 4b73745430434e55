// The shared parts of the POST /customers/create tests (create*.test.ts): the reference data, a
// valid body with a fresh number, the ways to send it, the messages of its rules, and a D1 whose
// batches a test can hold back to make requests race.
import { env } from "cloudflare:workers";
import { importDataset, type Dataset } from "../../../src/import/importer.ts";
import { createBody } from "../../fixtures/create-body.ts";
import { dataset } from "../../fixtures/dataset.ts";
import { expectedArea } from "../../fixtures/expected.ts";
import { call, validationEnvelope } from "../../helpers/http.ts";
import { makeKey } from "../../helpers/api-keys.ts";

export const PATH = "/api/customers/create";

/** Reference data and one existing customer, in the dataset format, through the real importer. */
export const DATASET = {
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
  // Asha and Vikram, each at one of the two postal codes above.
  sales_agents: [
    { ...dataset.sales_agents[0], postalcode_ids: [1] },
    { ...dataset.sales_agents[1], email: null, avatar: null, postalcode_ids: [2] },
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

let apiKey = "";
let serial = 100;

/**
 * Imports DATASET and makes the key that post() sends (returned); freshMobile() counts on from
 * `serialFrom`, so that each file's numbers are its own.
 */
export async function setUpCreate(serialFrom: number): Promise<string> {
  await importDataset(env.DB, DATASET as Dataset);
  serial = serialFrom;
  apiKey = (await makeKey()).secret;
  return apiKey;
}

export const KORAMANGALA = expectedArea(2, DATASET);

/** A mobile number no other test uses. */
export function freshMobile(): string {
  serial++;
  return `97${String(serial).padStart(8, "0")}`;
}

export function params(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...createBody(freshMobile()), ...overrides };
}

export function post(
  body: unknown,
  options: { query?: Record<string, string>; headers?: Record<string, string>; key?: string } = {},
) {
  const qs = options.query ? `?${new URLSearchParams(options.query)}` : "";
  return call(`${PATH}${qs}`, { method: "POST", key: options.key ?? apiKey, body, headers: options.headers });
}

export function form(values: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

export const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

export async function counts() {
  const row = await env.DB.prepare(
    "select (select count(*) from customers) c, (select count(*) from customer_addresses) a, (select count(*) from idempotency_keys) k",
  ).first<{ c: number; a: number; k: number }>();
  return row!;
}

/**
 * The real D1, except that every batch of a request's sessions goes through `hook`, which gets the
 * real batch to run and the batch's number within its session (1 = the lookup, 2 = the write).
 */
export function interceptBatches(
  hook: (real: () => Promise<D1Result[]>, nth: number) => Promise<D1Result[]>,
): D1Database {
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
export function lookupBarrier(n: number): D1Database {
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

export function roundTrips(res: { headers: Headers }): string | undefined {
  return /d1;dur=[\d.]+;desc="(\d+) round trips"/.exec(res.headers.get("Server-Timing") ?? "")?.[1];
}

/** The 422 naming these [field, message] pairs (the create endpoint's by default). */
export function validation(fields: Array<[string, string]>, path = PATH) {
  return validationEnvelope(
    path,
    fields.map(([field, message]) => ({ field, message })),
  );
}

export const MSG = {
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
  gstinPattern:
    "must match the GSTIN pattern: 2-digit state code, 10-character PAN, entity character, Z, check character",
  gstinState: "must start with a state code from 01 to 38",
  gstinChecksum: "has a wrong check character (the 15th character)",
  gstinLength: "must be 15 characters",
  idemKey: "must be 1 to 255 printable ASCII characters",
};

export function stringParams(p: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)]));
}
