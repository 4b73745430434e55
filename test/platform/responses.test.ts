// Every endpoint's every class of answer, recorded whole (status, headers, body) on the fixture into
// a committed file, test/platform/__snapshots__/responses.json: a change that must not alter the API is one
// that leaves the file as it is (`npx vitest run --project worker test/platform/responses.test.ts -u`
// rewrites it after an intended change; the diff shows what changed). What differs on every run is
// left out or masked: the headers Date, X-Request-Id, Server-Timing and X-D1-Bookmark; the version
// id of /healthz; the per-response nonce of /docs and the dashboard, its CSRF token and cookies.
import { expect, it } from "vitest";
import { type CallResult, call } from "../helpers/http.ts";
import { seedFixtureAndKey } from "../helpers/seed.ts";
import { createBody } from "../fixtures/create-body.ts";

const UNSTABLE_HEADERS = new Set(["date", "x-request-id", "server-timing", "x-d1-bookmark"]);

interface Step {
  name: string;
  method?: string;
  /** A path, or one built from the answers so far (to follow a page's next_page_url). */
  path: string | ((answers: Map<string, CallResult>) => string);
  headers?: Record<string, string> | ((answers: Map<string, CallResult>) => Record<string, string>);
  /** Sent without the API key (the 401s, the public pages). */
  noKey?: boolean;
  body?: string;
}

const json = { "Content-Type": "application/json" };
const newCustomer = createBody("98765 43219", { company_name: "Sharma Kirana", contactpersons_name: "R. Sharma" });
const registered = createBody("+91 91234 56780", {
  company_name: "Patel Traders",
  contactpersons_name: "K. Patel",
  address: "4 Station Road",
  area_id: 2,
  postalcode_id: 2,
  gst_treatment: "Registered",
  gstin: "27AAPFU0939F1ZV",
  salesagent_id: 2,
});
const form = new URLSearchParams(Object.entries(registered).map(([k, v]) => [k, String(v)])).toString();
const nextPage = (name: string) => (answers: Map<string, CallResult>) =>
  answers.get(name)!.body.data.pagination.next_page_url as string;
const etagOf = (name: string) => (answers: Map<string, CallResult>) => ({
  "If-None-Match": answers.get(name)!.headers.get("ETag")!,
});
/** A request without a body: GET unless `more` names another method. */
const get = (name: string, path: Step["path"], more: Omit<Step, "name" | "path"> = {}): Step => ({
  name,
  path,
  ...more,
});
const create = (
  name: string,
  headers: Record<string, string>,
  body?: string,
  path = "/api/customers/create",
): Step => ({ name, method: "POST", path, headers, body });
const unknownKey = "sk_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

const STEPS: Step[] = [
  // Listings, paging and cursors.
  get("customers, defaults", "/api/customers"),
  get("customers at the root, count 2", "/customers?count=2"),
  get("customers, page 2 of 3", "/api/customers?count=3&page=2"),
  get("customers, next page by cursor", nextPage("customers, page 2 of 3")),
  get("customers, skip to the end", "/api/customers?count=5&skip=22"),
  get("customers, page past the end", "/api/customers?count=10&page=999"),
  get("customers, count 0 (422)", "/api/customers?count=0"),
  get("customers, skip and page (422)", "/api/customers?skip=1&page=2&count=101"),
  get("customers, count twice (422)", "/api/customers?count=1&count=2"),
  get("customers, bad cursor (422)", "/api/customers?cursor=not-a-cursor"),
  get("orders by phone as written", "/api/orders?phone_number=%2B91%2098200%2000001"),
  get(
    "orders, dd-mm-yyyy dates, count 3",
    "/api/orders?phone_number=9820000001&from_date=01-01-2026&to_date=31-03-2026&count=3",
  ),
  get("orders, next page by cursor", nextPage("orders, dd-mm-yyyy dates, count 3")),
  get("orders, yyyy-mm-dd dates", "/api/orders?phone_number=09820000001&from_date=2026-01-01&to_date=2026-01-31"),
  get("orders, unknown phone (404)", "/api/orders?phone_number=6000000000"),
  get("orders, malformed phone (422)", "/api/orders?phone_number=12345"),
  get(
    "orders, impossible date and reversed range (422)",
    "/api/orders?phone_number=9820000001&from_date=31-02-2026&to_date=01-01-2020",
  ),
  get("orders, no phone (422)", "/api/orders"),
  // Lookups, ETags and 304s.
  get("areas", "/api/area"),
  get("areas alias", "/api/areas"),
  get("areas, If-None-Match (304)", "/api/area", { headers: etagOf("areas") }),
  get("areas, HEAD", "/api/area", { method: "HEAD" }),
  get("sales agents by pincode", "/api/fetch-salesagent-by-pincode?pincode=400069"),
  get("sales agents by pincode, If-None-Match (304)", "/api/fetch-salesagent-by-pincode?pincode=400069", {
    headers: etagOf("sales agents by pincode"),
  }),
  get("pincode nobody serves", "/api/fetch-salesagent-by-pincode?pincode=110001"),
  get("pincode malformed (422)", "/api/fetch-salesagent-by-pincode?pincode=012345"),
  get("postal codes, count 3", "/api/postalcodes?count=3"),
  get("postal codes by code", "/api/postalcodes?code=400069"),
  get("sales agents, page 2 of 2", "/api/salesagents?count=2&page=2"),
  // Creating customers.
  create(
    "create, JSON, Idempotency-Key (201)",
    { ...json, "Idempotency-Key": "record-1" },
    JSON.stringify(newCustomer),
  ),
  create("create, replayed (201)", { ...json, "Idempotency-Key": "record-1" }, JSON.stringify(newCustomer)),
  create(
    "create, key reused with other parameters (409)",
    { ...json, "Idempotency-Key": "record-1" },
    JSON.stringify({ ...newCustomer, address: "13 MG Road" }),
  ),
  create(
    "create, existing mobile number (409)",
    json,
    JSON.stringify({ ...newCustomer, mobile_number: "+91 98200 00001" }),
  ),
  create("create, registered, form body (201)", { "Content-Type": "application/x-www-form-urlencoded" }, form),
  create("create, nothing given (422)", {}),
  create(
    "create, query string, every rule broken (422)",
    {},
    undefined,
    "/api/customers/create?company_name=%20&mobile_number=12345&area_id=0&postalcode_id=x&gst_treatment=Registered&gstin=27AAPFU0939F1ZX&salesagent_id=99999",
  ),
  create("create, broken JSON (400)", json, '{"company_name":'),
  create("create, body over 16 KiB (413)", json, JSON.stringify({ ...newCustomer, address: "x".repeat(17 * 1024) })),
  // Authentication.
  get("no Authorization (401)", "/api/customers", { noKey: true }),
  get("two spaces after Bearer (401)", "/api/customers", {
    noKey: true,
    headers: { Authorization: `Bearer  ${unknownKey}` },
  }),
  get("unknown key (401)", "/api/orders?phone_number=9820000001", {
    noKey: true,
    headers: { Authorization: `Bearer ${unknownKey}` },
  }),
  get("live key on a test deployment (401)", "/api/customers", {
    noKey: true,
    headers: { Authorization: `Bearer ${unknownKey.replace("test", "live")}` },
  }),
  { ...create("not a key (401), create", { Authorization: "Basic dXNlcjpwYXNz", ...json }, "{"), noKey: true },
  // Paths and methods.
  get("unknown path (404)", "/api/nothing-here"),
  get("other method (405)", "/api/customers", { method: "DELETE" }),
  get("GET on the create path (405)", "/api/customers/create"),
  // Public pages.
  get("health check", "/healthz", { noKey: true }),
  get("OpenAPI document", "/openapi.json", { noKey: true }),
  get("API documentation page", "/docs", { noKey: true }),
  get("dashboard", "/dashboard", { noKey: true }),
  get("dashboard sign-in page", "/dashboard/login", { noKey: true }),
  get("admin API without a token (401)", "/admin/keys", { noKey: true }),
];

/** Masks what changes from run to run in a header value or a body's text. */
function mask(text: string, key: string): string {
  return text
    .replaceAll(key, "{key}")
    .replace(/'nonce-[A-Za-z0-9+/=_-]+'/g, "'nonce-{nonce}'")
    .replace(/nonce="[A-Za-z0-9+/=_-]+"/g, 'nonce="{nonce}"')
    .replace(/(name="csrf(?:_token)?"[^>]*value=")[^"]+"/g, '$1{csrf}"')
    .replace(/(__Host-[A-Za-z_]+=)[^;]+/g, "$1{cookie}")
    .replace(/("version":")[0-9a-f-]{36}"/, '$1{version id}"');
}

it("answers every request as recorded in test/platform/__snapshots__/responses.json", async () => {
  const key = await seedFixtureAndKey("responses");
  const answers = new Map<string, CallResult>();
  const recorded = [];
  for (const step of STEPS) {
    const path = typeof step.path === "function" ? step.path(answers) : step.path;
    const headers = typeof step.headers === "function" ? step.headers(answers) : (step.headers ?? {});
    const method = step.method ?? "GET";
    const res = await call(path, {
      method,
      key: step.noKey ? undefined : key,
      headers: { Accept: "application/json", ...headers },
      body: step.body,
      redirect: "manual",
    });
    answers.set(step.name, res);
    const kept = [...res.headers]
      .filter(([name]) => !UNSTABLE_HEADERS.has(name))
      .sort(([a], [b]) => a.localeCompare(b));
    const text = mask(res.text, key);
    recorded.push({
      name: step.name,
      request: { method, path: mask(path, key), headers },
      status: res.status,
      headers: Object.fromEntries(kept.map(([name, value]) => [name, mask(value, key)])),
      body: res.body === undefined ? text : JSON.parse(text),
    });
  }
  await expect(`${JSON.stringify(recorded, null, 2)}\n`).toMatchFileSnapshot("./__snapshots__/responses.json");
  // 52 recorded requests and the seeding before them: a bound for a busy machine, not a speed target.
}, 60_000);
