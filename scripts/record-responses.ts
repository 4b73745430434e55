// `npm run record:responses -- --out FILE`: serves the API on a fresh local state with the demo data
// (`npm run db:import -- data/demo.json`, a key from `npm run keys`, then `npm run dev`), sends a
// fixed list of requests that covers every endpoint and every class of answer, and writes each
// answer's status, headers and body to FILE. `--compare A B` prints what differs between two such
// recordings and exits 1 when anything does: a refactoring that must not change the API is checked by
// recording before and after it.
//
// What would differ on every run is left out or masked, so that two runs on the same code compare
// equal:
// - headers left out: Date, X-Request-Id, Server-Timing (durations), X-D1-Bookmark (D1's position);
// - the base URL (a free port each run) becomes {base}; the API key's secret (made anew each run,
//   never expected in an answer) becomes {key};
// - the version id of /healthz (wrangler dev makes a new one at every start) becomes {version id};
// - the per-response nonce of /docs and the dashboard (Content-Security-Policy and the page) becomes
//   {nonce}; the dashboard's CSRF token and signed cookie values become {csrf} and {cookie}.
// Everything else, ids included, comes from the deterministic demo data and a fresh state.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { type CommandLine, failureLine, parseCommandLine, UsageError } from "./lib/cli.ts";
import { freePort, makeKey, run, type Server, spawnServer, tempStateDir } from "./lib/processes.ts";

const COMMAND: CommandLine = {
  invocation: "npm run record:responses --",
  usage: `Usage: npm run record:responses -- --out FILE
       npm run record:responses -- --compare A B
  --out FILE     serve the demo data on a fresh local state, send the fixed list of requests and write
                 every answer (status, headers, body; run-to-run noise masked) to FILE as JSON
  --compare A B  print the differences between two recordings; exit 1 when there are any`,
};
const OPTIONS = { out: { type: "string", value: "FILE" }, compare: { type: "boolean" } } as const;

/** Headers whose values change on every request or run: never recorded. */
const UNSTABLE_HEADERS = new Set(["date", "x-request-id", "server-timing", "x-d1-bookmark"]);
const ADMIN_TOKEN = "record-responses-admin-token-0123456789";

interface Step {
  name: string;
  method?: string;
  /** A path under the base URL, or a function of the answers so far (to follow a page URL). */
  path: string | ((recorded: Recorded[]) => string);
  headers?: Record<string, string> | ((recorded: Recorded[]) => Record<string, string>);
  /** Without the API key's Authorization header (the 401s, the public pages). */
  noKey?: boolean;
  body?: string;
  /** Masks what varies from run to run in this answer's parsed body. */
  unstable?: (body: any) => unknown;
}

interface Recorded {
  name: string;
  request: { method: string; path: string; headers: Record<string, string> };
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const json = { "Content-Type": "application/json" };
const newCustomer = {
  company_name: "Sharma Kirana", mobile_number: "98765 43219", contactpersons_name: "R. Sharma",
  address: "12 MG Road", area_id: 1, postalcode_id: 1, gst_treatment: "Unregistered", salesagent_id: 1,
};
const registered = {
  company_name: "Patel Traders", mobile_number: "+91 91234 56780", contactpersons_name: "K. Patel",
  address: "4 Station Road", area_id: 2, postalcode_id: 2, gst_treatment: "registered", gstin: "27aapfu0939f1zv",
  salesagent_id: 2,
};

/** The value of a field of an earlier JSON answer, by the answer's name. */
function fieldOf(recorded: Recorded[], name: string, pick: (body: any) => unknown): string {
  const answer = recorded.find((r) => r.name === name);
  const value = answer ? pick(answer.body) : undefined;
  if (typeof value !== "string") throw new Error(`no value to follow in the answer "${name}"`);
  return value;
}
const nextPage = (name: string) => (recorded: Recorded[]) =>
  fieldOf(recorded, name, (b) => b?.data?.pagination?.next_page_url).replace("{base}", "");
const etagOf = (name: string) => (recorded: Recorded[]) => ({
  "If-None-Match": fieldOf(recorded, name, () => recorded.find((r) => r.name === name)?.headers.etag),
});

/** A GET step: the step list's usual request (name, path, and whatever else it needs). */
const get = (name: string, path: Step["path"], more: Omit<Step, "name" | "path" | "method"> = {}): Step => ({ name, path, ...more });

const STEPS: Step[] = [
  // Listings, paging and cursors.
  get("customers, defaults", "/api/customers"),
  get("customers at the root, count 2", "/customers?count=2"),
  get("customers, page 2 of 3", "/api/customers?count=3&page=2"),
  get("customers, next page by cursor", nextPage("customers, page 2 of 3")),
  get("customers, skip to the end", "/api/customers?count=5&skip=297"),
  get("customers, page past the end", "/api/customers?count=10&page=999"),
  get("customers, count 0 (422)", "/api/customers?count=0"),
  get("customers, skip and page (422)", "/api/customers?skip=1&page=2&count=101"),
  get("customers, count twice (422)", "/api/customers?count=1&count=2"),
  get("customers, bad cursor (422)", "/api/customers?cursor=not-a-cursor"),
  get("orders by phone as written", "/api/orders?phone_number=%2B91%2098200%2000001"),
  get("orders, dd-mm-yyyy dates, count 3", "/api/orders?phone_number=9820000001&from_date=01-01-2025&to_date=31-03-2026&count=3"),
  get("orders, next page by cursor", nextPage("orders, dd-mm-yyyy dates, count 3")),
  get("orders, yyyy-mm-dd dates", "/api/orders?phone_number=09820000001&from_date=2025-06-01&to_date=2025-12-31"),
  get("orders, unknown phone (404)", "/api/orders?phone_number=6000000000"),
  get("orders, malformed phone (422)", "/api/orders?phone_number=12345"),
  get("orders, impossible date and reversed range (422)", "/api/orders?phone_number=9820000001&from_date=31-02-2026&to_date=01-01-2020"),
  get("orders, no phone (422)", "/api/orders"),
  // Lookups, ETags and 304s.
  get("areas", "/api/area"),
  get("areas alias", "/api/areas"),
  get("areas, If-None-Match (304)", "/api/area", { headers: etagOf("areas") }),
  { name: "areas, HEAD", method: "HEAD", path: "/api/area" },
  get("sales agents by pincode", "/api/fetch-salesagent-by-pincode?pincode=500034"),
  get("sales agents by pincode, If-None-Match (304)", "/api/fetch-salesagent-by-pincode?pincode=500034", { headers: etagOf("sales agents by pincode") }),
  get("pincode nobody serves", "/api/fetch-salesagent-by-pincode?pincode=400703"),
  get("pincode malformed (422)", "/api/fetch-salesagent-by-pincode?pincode=012345"),
  get("postal codes, count 3", "/api/postalcodes?count=3"),
  get("postal codes by code", "/api/postalcodes?code=400069"),
  get("sales agents, page 2 of 2", "/api/salesagents?count=2&page=2"),
  // Creating customers.
  { name: "create, JSON, Idempotency-Key (201)", method: "POST", path: "/api/customers/create", headers: { ...json, "Idempotency-Key": "record-1" }, body: JSON.stringify(newCustomer) },
  { name: "create, replayed (201)", method: "POST", path: "/api/customers/create", headers: { ...json, "Idempotency-Key": "record-1" }, body: JSON.stringify(newCustomer) },
  { name: "create, key reused with other parameters (409)", method: "POST", path: "/api/customers/create", headers: { ...json, "Idempotency-Key": "record-1" }, body: JSON.stringify({ ...newCustomer, address: "13 MG Road" }) },
  { name: "create, existing mobile number (409)", method: "POST", path: "/api/customers/create", headers: json, body: JSON.stringify({ ...newCustomer, mobile_number: "+91 98200 00001" }) },
  { name: "create, registered, form body (201)", method: "POST", path: "/api/customers/create", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(Object.entries(registered).map(([k, v]) => [k, String(v)])).toString() },
  { name: "create, nothing given (422)", method: "POST", path: "/api/customers/create" },
  { name: "create, query string, every rule broken (422)", method: "POST", path: "/api/customers/create?company_name=%20&mobile_number=12345&area_id=0&postalcode_id=x&gst_treatment=Registered&gstin=27AAPFU0939F1ZX&salesagent_id=99999" },
  { name: "create, broken JSON (400)", method: "POST", path: "/api/customers/create", headers: json, body: "{\"company_name\":" },
  { name: "create, body over 16 KiB (413)", method: "POST", path: "/api/customers/create", headers: json, body: JSON.stringify({ ...newCustomer, address: "x".repeat(17 * 1024) }) },
  // Authentication.
  get("no Authorization (401)", "/api/customers", { noKey: true }),
  get("two spaces after Bearer (401)", "/api/customers", { noKey: true, headers: { Authorization: "Bearer  sk_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG" } }),
  get("unknown key (401)", "/api/orders?phone_number=9820000001", { noKey: true, headers: { Authorization: "Bearer sk_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG" } }),
  get("live key on a test deployment (401)", "/api/customers", { noKey: true, headers: { Authorization: "Bearer sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG" } }),
  { name: "not a key (401), create", method: "POST", path: "/api/customers/create", noKey: true, headers: { Authorization: "Basic dXNlcjpwYXNz", ...json }, body: "{" },
  // Paths and methods.
  get("unknown path (404)", "/api/nothing-here"),
  { name: "other method (405)", method: "DELETE", path: "/api/customers" },
  get("GET on the create path (405)", "/api/customers/create"),
  // Public pages.
  // wrangler dev gives each start a new version id.
  get("health check", "/healthz", { noKey: true, unstable: (b) => ({ ...b, version: "{version id}" }) }),
  get("OpenAPI document", "/openapi.json", { noKey: true }),
  get("API documentation page", "/docs", { noKey: true }),
  get("dashboard", "/dashboard", { noKey: true }),
  get("dashboard sign-in page", "/dashboard/login", { noKey: true }),
  get("admin API without a token (401)", "/admin/keys", { noKey: true }),
];

/** Masks what changes from run to run in a header value or a body text. */
function masker(base: string, key: string): (text: string) => string {
  return (text) =>
    text
      .split(base).join("{base}")
      .split(key).join("{key}")
      .replace(/'nonce-[A-Za-z0-9+/=_-]+'/g, "'nonce-{nonce}'")
      .replace(/nonce="[A-Za-z0-9+/=_-]+"/g, 'nonce="{nonce}"')
      .replace(/(name="csrf"[^>]*value=")[^"]+"/g, '$1{csrf}"')
      .replace(/(__Host-[A-Za-z_]+=)[^;]+/g, "$1{cookie}");
}

async function send(server: Server, key: string, step: Step, recorded: Recorded[]): Promise<Recorded> {
  const mask = masker(server.url, key);
  const method = step.method ?? "GET";
  const path = typeof step.path === "function" ? step.path(recorded) : step.path;
  const extra = typeof step.headers === "function" ? step.headers(recorded) : (step.headers ?? {});
  const headers: Record<string, string> = { Accept: "application/json", ...extra };
  if (!step.noKey) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(`${server.url}${path}`, { method, headers, body: step.body, redirect: "manual" });
  const text = await res.text();
  const kept: Record<string, string> = {};
  for (const [name, value] of [...res.headers].sort(([a], [b]) => a.localeCompare(b))) {
    if (!UNSTABLE_HEADERS.has(name)) kept[name] = mask(value);
  }
  let body: unknown = mask(text);
  if ((res.headers.get("content-type") ?? "").includes("json") && text !== "") body = JSON.parse(mask(text));
  if (step.unstable) body = step.unstable(body);
  const shownHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, mask(v)]));
  return { name: step.name, request: { method, path: mask(path), headers: shownHeaders }, status: res.status, headers: kept, body };
}

async function record(out: string): Promise<void> {
  const persistDir = tempStateDir("olk-record-");
  let server: Server | undefined;
  try {
    const env = { PERSIST_DIR: persistDir };
    const imported = await run("npm", ["run", "--silent", "db:import", "--", "data/demo.json"], env);
    if (imported.code !== 0) throw new Error(`npm run db:import failed:\n${imported.stdout}\n${imported.stderr}`);
    const key = await makeKey(persistDir, "record-responses");
    const port = await freePort();
    server = await spawnServer("npm", ["run", "dev"], {
      port,
      // The defaults, whatever the calling shell has set.
      env: { ...env, PORT: String(port), ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: "", INSPECT: "" },
      readyPath: "/healthz",
      readyTimeoutMs: 180_000,
    });
    const recorded: Recorded[] = [];
    for (const step of STEPS) recorded.push(await send(server, key, step, recorded));
    writeFileSync(out, `${JSON.stringify({ dataset: "data/demo.json", responses: recorded }, null, 2)}\n`);
    console.log(`Recorded ${recorded.length} responses to ${out}.`);
  } finally {
    await server?.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

/** Every difference between two JSON values, one line each, by path. */
function differences(a: unknown, b: unknown, path: string, out: string[]): void {
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    for (const k of new Set([...ka, ...kb])) {
      const next = Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`;
      if (!(k in (a as object))) out.push(`${next}: only in B: ${JSON.stringify((b as any)[k])}`);
      else if (!(k in (b as object))) out.push(`${next}: only in A: ${JSON.stringify((a as any)[k])}`);
      else differences((a as any)[k], (b as any)[k], next, out);
    }
    if (!Array.isArray(a) && ka.join("\n") !== kb.join("\n") && ka.length === kb.length) out.push(`${path}: the same members in another order`);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}:\n    A: ${JSON.stringify(a)}\n    B: ${JSON.stringify(b)}`);
}

function compare(fileA: string, fileB: string): void {
  const a = JSON.parse(readFileSync(fileA, "utf8")) as { responses: Recorded[] };
  const b = JSON.parse(readFileSync(fileB, "utf8")) as { responses: Recorded[] };
  const lines: string[] = [];
  const names = new Set([...a.responses.map((r) => r.name), ...b.responses.map((r) => r.name)]);
  for (const name of names) {
    const ra = a.responses.find((r) => r.name === name);
    const rb = b.responses.find((r) => r.name === name);
    const found: string[] = [];
    if (!ra || !rb) found.push(`  only in ${ra ? "A" : "B"}`);
    else differences(ra, rb, "", found);
    if (found.length > 0) lines.push(`${name}:`, ...found.map((l) => (l.startsWith("  ") ? l : `  ${l}`)));
  }
  if (lines.length === 0) {
    console.log(`${fileA} and ${fileB}: the same ${a.responses.length} responses.`);
    return;
  }
  console.log(`${fileA} (A) and ${fileB} (B) differ:\n${lines.join("\n")}`);
  process.exitCode = 1;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv, COMMAND, OPTIONS, 2);
  if (values.compare) {
    if (values.out !== undefined || positionals.length !== 2) throw new UsageError("--compare takes two recordings, A and B, and no --out", true);
    compare(positionals[0]!, positionals[1]!);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`, true);
  if (values.out === undefined) throw new UsageError("--out FILE or --compare A B is required", true);
  await record(values.out);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(failureLine(err, COMMAND));
  process.exitCode = 1;
});
