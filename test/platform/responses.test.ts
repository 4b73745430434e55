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
const create = (
  name: string,
  headers: Record<string, string>,
  body?: string,
  path = "/api/customers/create",
): Step => ({ name, method: "POST", path, headers, body });
const unknownKey = "sk_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

const STEPS: Step[] = [
  // Listings, paging and cursors.
  { name: "customers, defaults", path: "/api/customers" },
  { name: "customers at the root, count 2", path: "/customers?count=2" },
  { name: "customers, page 2 of 3", path: "/api/customers?count=3&page=2" },
  { name: "customers, next page by cursor", path: nextPage("customers, page 2 of 3") },
  { name: "customers, skip to the end", path: "/api/customers?count=5&skip=22" },
  { name: "customers, page past the end", path: "/api/customers?count=10&page=999" },
  { name: "customers, count 0 (422)", path: "/api/customers?count=0" },
  { name: "customers, skip and page (422)", path: "/api/customers?skip=1&page=2&count=101" },
  { name: "customers, count twice (422)", path: "/api/customers?count=1&count=2" },
  { name: "customers, bad cursor (422)", path: "/api/customers?cursor=not-a-cursor" },
  { name: "orders by phone as written", path: "/api/orders?phone_number=%2B91%2098200%2000001" },
  {
    name: "orders, dd-mm-yyyy dates, count 3",
    path: "/api/orders?phone_number=9820000001&from_date=01-01-2026&to_date=31-03-2026&count=3",
  },
  { name: "orders, next page by cursor", path: nextPage("orders, dd-mm-yyyy dates, count 3") },
  {
    name: "orders, yyyy-mm-dd dates",
    path: "/api/orders?phone_number=09820000001&from_date=2026-01-01&to_date=2026-01-31",
  },
  { name: "orders, unknown phone (404)", path: "/api/orders?phone_number=6000000000" },
  { name: "orders, malformed phone (422)", path: "/api/orders?phone_number=12345" },
  {
    name: "orders, impossible date and reversed range (422)",
    path: "/api/orders?phone_number=9820000001&from_date=31-02-2026&to_date=01-01-2020",
  },
  { name: "orders, no phone (422)", path: "/api/orders" },
  // Lookups, ETags and 304s.
  { name: "areas", path: "/api/area" },
  { name: "areas alias", path: "/api/areas" },
  { name: "areas, If-None-Match (304)", path: "/api/area", headers: etagOf("areas") },
  { name: "areas, HEAD", method: "HEAD", path: "/api/area" },
  { name: "sales agents by pincode", path: "/api/fetch-salesagent-by-pincode?pincode=400069" },
  {
    name: "sales agents by pincode, If-None-Match (304)",
    path: "/api/fetch-salesagent-by-pincode?pincode=400069",
    headers: etagOf("sales agents by pincode"),
  },
  { name: "pincode nobody serves", path: "/api/fetch-salesagent-by-pincode?pincode=110001" },
  { name: "pincode malformed (422)", path: "/api/fetch-salesagent-by-pincode?pincode=012345" },
  { name: "postal codes, count 3", path: "/api/postalcodes?count=3" },
  { name: "postal codes by code", path: "/api/postalcodes?code=400069" },
  { name: "sales agents, page 2 of 2", path: "/api/salesagents?count=2&page=2" },
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
  { name: "no Authorization (401)", path: "/api/customers", noKey: true },
  {
    name: "two spaces after Bearer (401)",
    path: "/api/customers",
    noKey: true,
    headers: { Authorization: `Bearer  ${unknownKey}` },
  },
  {
    name: "unknown key (401)",
    path: "/api/orders?phone_number=9820000001",
    noKey: true,
    headers: { Authorization: `Bearer ${unknownKey}` },
  },
  {
    name: "live key on a test deployment (401)",
    path: "/api/customers",
    noKey: true,
    headers: { Authorization: `Bearer ${unknownKey.replace("test", "live")}` },
  },
  { ...create("not a key (401), create", { Authorization: "Basic dXNlcjpwYXNz", ...json }, "{"), noKey: true },
  // Paths and methods.
  { name: "unknown path (404)", path: "/api/nothing-here" },
  { name: "other method (405)", method: "DELETE", path: "/api/customers" },
  { name: "GET on the create path (405)", path: "/api/customers/create" },
  // Public pages.
  { name: "health check", path: "/healthz", noKey: true },
  { name: "OpenAPI document", path: "/openapi.json", noKey: true },
  { name: "API documentation page", path: "/docs", noKey: true },
  { name: "dashboard", path: "/dashboard", noKey: true },
  { name: "dashboard sign-in page", path: "/dashboard/login", noKey: true },
  { name: "admin API without a token (401)", path: "/admin/keys", noKey: true },
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
});
