// `npm run bench -- load`: a bounded load run against `npm start` on a temporary PERSIST_DIR (migrations, demo data)
// with rate limiting off: a weighted mix of every endpoint, creates included (./load-mix.ts), then a check that no
// create was lost. Fails on any 5xx, unanswered request or lost create. The mix draws its parameters from the API
// itself, so it works on any dataset.
import { join } from "node:path";
import { normalizePhone } from "../../src/platform/lib/phone.ts";
import { cannon, type CannonResult, num } from "./cannon.ts";
import { auth, makeKey, type PerfRun } from "./harness.ts";
import { buildMix, type Catalog, type Tally } from "./load-mix.ts";

export async function loadRun(run: PerfRun, opts: { duration: number; connections: number }) {
  const persistDir = join(run.dir, "state");
  const key = await makeKey(persistDir, "load run");
  run.step("starting npm start with RATE_LIMIT_PER_MINUTE=0 (migrations and demo data first)...");
  const started = Date.now();
  const server = await run.serveApi("api", "start", persistDir);
  run.step(`serving at ${server.url} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const catalog = await readCatalog(server.url, key);
  run.step(
    `dataset: ${catalog.customerIds.size} customers, ${catalog.pincodes.length} pincodes, ${catalog.areaIds.length} areas, ${catalog.salesagentIds.length} sales agents`,
  );
  const { requests, tally } = buildMix(catalog, key, String(Date.now()));
  run.step(`load: ${opts.duration} s at ${opts.connections} connections, a weighted mix of every endpoint...`);
  const result = await cannon({
    url: server.url,
    connections: opts.connections,
    duration: opts.duration,
    timeout: 10,
    requests,
  });
  return report(result, tally, await checkCreates(server.url, key, catalog.customerIds, tally));
}

type Get = (path: string) => Promise<any>;

function apiGet(base: string, key: string): Get {
  return async (path) => {
    const res = await fetch(`${base}${path}`, { headers: auth(key) });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
}

/** Every row of a paged listing, following next_page_url. */
async function listAll(get: Get, path: string, member: string): Promise<any[]> {
  const rows: any[] = [];
  for (let next: string | null = `${path}?count=100`; next;) {
    const page = await get(next);
    rows.push(...page.data[member]);
    const url: string | null = page.data.pagination.next_page_url;
    next = url ? url.slice(new URL(url).origin.length) : null;
  }
  return rows;
}

async function readCatalog(base: string, key: string): Promise<Catalog> {
  const get = apiGet(base, key);
  const customers = await listAll(get, "/api/customers", "customers");
  const postalcodes = await listAll(get, "/api/postalcodes", "postalcodes");
  const salesagents = await listAll(get, "/api/salesagents", "salesagents");
  const areas = (await get("/api/area")).data as { id: number }[];
  const phones = customers.map((c: { contactperson_number: string }) => c.contactperson_number).filter(Boolean);
  const catalog: Catalog = {
    customerIds: new Set(customers.map((c: { id: number }) => c.id)),
    phones,
    pincodes: [...new Set(postalcodes.map((p: { code: string }) => p.code))] as string[],
    postalcodeIds: postalcodes.map((p: { id: number }) => p.id),
    areaIds: areas.map((a) => a.id),
    salesagentIds: salesagents.map((s: { id: number }) => s.id),
    takenPhones: new Set(phones.map(normalizePhone)),
  };
  for (const [name, list] of Object.entries(catalog)) {
    if (Array.isArray(list) && list.length === 0)
      throw new Error(`the dataset has no ${name}: the load mix needs some`);
  }
  return catalog;
}

interface CreateCheck {
  listedBefore: number;
  listedAfter: number;
  /** Distinct customers that 201s named. */
  created: number;
  /** Customers a 201 named that are not listed. */
  missing: number[];
  /** Creates still in flight when the run stopped, and how many of them were written. */
  cutOff: { sent: number; written: number };
  /** New rows that no 201 explains: a create answered otherwise that wrote, or one we never sent. */
  unexplained: string[];
}

/**
 * Every customer a 201 named is listed by GET /customers (all pages); every customer listed now and
 * not before carries a number that one of our creates sent, and that create's answer was 201, or no
 * answer at all (still in flight when the run stopped: written or not, nobody was told).
 */
async function checkCreates(
  base: string,
  key: string,
  before: Set<number>,
  tally: { createdIds: Set<number>; createsSent: Map<string, number | undefined> },
): Promise<CreateCheck> {
  const listed = (await listAll(apiGet(base, key), "/api/customers", "customers")) as {
    id: number;
    contactperson_number: string;
  }[];
  const listedIds = new Set(listed.map((c) => c.id));
  const missing = [...tally.createdIds].filter((id) => !listedIds.has(id)).sort((a, b) => a - b);
  const unexplained: string[] = [];
  let written = 0;
  for (const customer of listed) {
    if (before.has(customer.id) || tally.createdIds.has(customer.id)) continue;
    const phone = normalizePhone(customer.contactperson_number);
    if (!tally.createsSent.has(phone))
      unexplained.push(`customer ${customer.id} (${phone}): no create of this run sent that number`);
    else if (tally.createsSent.get(phone) === undefined) written++;
    else
      unexplained.push(
        `customer ${customer.id} (${phone}): its create was answered ${tally.createsSent.get(phone)}, yet it was written`,
      );
  }
  const cutOffSent = [...tally.createsSent.values()].filter((status) => status === undefined).length;
  return {
    listedBefore: before.size,
    listedAfter: listed.length,
    created: tally.createdIds.size,
    missing,
    cutOff: { sent: cutOffSent, written },
    unexplained,
  };
}

function report(result: CannonResult, tally: Tally, check: CreateCheck): { ok: boolean; lines: string[] } {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([s, v]) => [Number(s), v.count ?? 0] as const)
    .sort((a, b) => a[0] - b[0]);
  const list = (pairs: (readonly [number, number])[]) => pairs.map(([s, c]) => `${s}: ${c}`).join(", ");
  const nonOk = statuses.filter(([s]) => s < 200 || s >= 300);
  const fiveXx = statuses.filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const { latency: l, requests, duration } = result;
  const failures = [
    fiveXx > 0 && `${fiveXx} answers were 5xx`,
    result.errors + result.timeouts > 0 && `${result.errors + result.timeouts} requests got no answer`,
    check.missing.length > 0 && `${check.missing.length} created customers are not listed`,
    check.unexplained.length > 0 && `${check.unexplained.length} customers were written that no 201 explains`,
    tally.createAnomalies.length > 0 && `${tally.createAnomalies.length} create anomalies`,
  ].filter((f): f is string => typeof f === "string");
  const lines = [
    `requests:    ${requests.total} in ${duration} s = ${num(requests.total / duration, 1)} req/s (${num(result.throughput.average / 1024, 1)} KiB/s)`,
    `latency ms:  p50 ${l.p50}, p90 ${l.p90}, p99 ${l.p99}, max ${l.max}, mean ${num(l.mean, 1)}`,
    `by status:   ${list(statuses) || "none"}`,
    `errors:      ${result.errors} (connection errors), ${result.timeouts} timeouts`,
    `non-2xx:     ${result.non2xx}${nonOk.length ? ` (${list(nonOk)})` : ""}`,
    `5xx:         ${fiveXx}`,
    "by endpoint:",
    ...[...tally.byEndpoint]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([name, byStatus]) => {
        const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
        return `  ${name.padEnd(36)} ${String(total).padStart(7)}  ${list([...byStatus].sort((a, b) => a[0] - b[0]))}`;
      }),
    `creates:     ${tally.created} answered 201 (${tally.replayed} of them replays), ${check.created} distinct customers`,
    `lost creates: ${check.missing.length} (${check.created - check.missing.length} of ${check.created} created customers listed by GET /customers; ` +
      `listing ${check.listedBefore} -> ${check.listedAfter}, of which ${check.cutOff.written} by the ${check.cutOff.sent} creates still in flight at the stop)`,
    ...(check.missing.length
      ? [`  MISSING: ${check.missing.slice(0, 20).join(", ")}${check.missing.length > 20 ? ", ..." : ""}`]
      : []),
    ...check.unexplained.slice(0, 10).map((row) => `  UNEXPLAINED: ${row}`),
    ...tally.createAnomalies.slice(0, 10).map((anomaly) => `  ANOMALY: ${anomaly}`),
    failures.length
      ? `RESULT: FAIL: ${failures.join("; ")}`
      : "RESULT: PASS: no 5xx, no request without an answer, no lost create",
  ];
  return { ok: failures.length === 0, lines };
}
