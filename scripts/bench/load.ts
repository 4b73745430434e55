// `npm run bench -- load`: a bounded load run against `npm start` on a temporary PERSIST_DIR (migrations, demo data)
// with rate limiting off: a weighted mix of every endpoint, creates included, then a check that no create was lost.
// Fails on any 5xx, unanswered request or lost create. The mix draws its parameters from the API itself, so it
// works on any dataset.
import { join } from "node:path";
import type autocannon from "autocannon";
import { normalizePhone } from "../../src/platform/lib/phone.ts";
import { Rng } from "../dataset/prng.ts";
import { auth, cannon, getJson, makeKey, num, type PerfRun } from "./harness.ts";

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
  const result = await cannon({ url: server.url, ...opts, timeout: 10, requests });
  return report(result, tally, await checkCreates(server.url, key, catalog.customerIds, tally));
}

/** Every row of a paged listing (`/api/MEMBER`), following next_page_url. */
async function listAll(base: string, key: string, member: string): Promise<any[]> {
  const rows: any[] = [];
  for (let next: string | null = `${base}/api/${member}?count=100`; next;) {
    const { body } = await getJson(next, key);
    rows.push(...body.data[member]);
    next = body.data.pagination.next_page_url;
  }
  return rows;
}

async function readCatalog(base: string, key: string) {
  const customers = await listAll(base, key, "customers");
  const postalcodes = await listAll(base, key, "postalcodes");
  const phones: string[] = customers.map((c) => c.contactperson_number).filter(Boolean);
  const catalog = {
    /** The ids GET /customers lists before the load. */
    customerIds: new Set<number>(customers.map((c) => c.id)),
    /** Contact numbers as stored (mixed formats: the API normalizes them). */
    phones,
    pincodes: [...new Set<string>(postalcodes.map((p) => p.code))],
    postalcodeIds: postalcodes.map((p): number => p.id),
    areaIds: (await getJson(`${base}/api/area`, key)).body.data.map((a: { id: number }) => a.id) as number[],
    salesagentIds: (await listAll(base, key, "salesagents")).map((s): number => s.id),
    /** Normalized numbers of existing customers: a create must not reuse one (that is a 409). */
    takenPhones: new Set(phones.map(normalizePhone)),
  };
  const empty = Object.entries(catalog).find(([, list]) => Array.isArray(list) && list.length === 0);
  if (empty) throw new Error(`the dataset has no ${empty[0]}: the load mix needs some`);
  return catalog;
}

interface Built {
  method?: "POST";
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** For a keyed create: remembered once answered, so that it can be replayed. */
  keyed?: { key: string; body: string };
  /** For a create: the mobile number it sends. */
  mobile?: string;
}

/**
 * The weighted mix: every endpoint, with parameters drawn from the dataset, and creates with fresh valid mobile
 * numbers (JSON, query-string and form bodies; some with an Idempotency-Key, some of those sent again to be
 * replayed). Tallies every answer per endpoint.
 */
function buildMix(catalog: Awaited<ReturnType<typeof readCatalog>>, key: string, runId: string) {
  // The same mix order on every run.
  const rng = new Rng(20260314);
  const pick = <T>(list: readonly T[]): T => rng.pick(list);
  const prefix = () => (rng.chance(0.5) ? "/api" : "");
  const upTo = (n: number) => 1 + Math.floor(rng.next() * n);
  // Valid mobile numbers that no customer has nor any earlier create got, from a random start.
  let nextMobile = 6_000_000_000 + Math.floor(Math.random() * 3_000_000_000);
  const freshMobile = () => {
    while (catalog.takenPhones.has(String(nextMobile))) nextMobile++;
    return String(nextMobile++);
  };
  let keyCount = 0;
  const answeredKeyed: { key: string; body: string; id: number; mobile?: string }[] = [];

  const customer = () => {
    const mobile_number = freshMobile();
    return {
      company_name: `Load Test Traders ${mobile_number.slice(-5)}`,
      contactpersons_name: "Load Tester",
      mobile_number,
      address: `${upTo(200)} Benchmark Road`,
      area_id: pick(catalog.areaIds),
      postalcode_id: pick(catalog.postalcodeIds),
      salesagent_id: pick(catalog.salesagentIds),
      ...(rng.chance(0.3)
        ? { gst_treatment: "Registered", gstin: "27AAPFU0939F1ZV" }
        : { gst_treatment: "Unregistered" }),
    };
  };
  const asParams = (c: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(c).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const json = { "Content-Type": "application/json" };
  const createJson = (): Built => {
    const replay = answeredKeyed.length > 0 && rng.chance(0.1) ? pick(answeredKeyed) : undefined;
    if (replay) {
      const headers = { ...json, "Idempotency-Key": replay.key };
      return { method: "POST", path: "/api/customers/create", body: replay.body, mobile: replay.mobile, headers };
    }
    const c = customer();
    const body = JSON.stringify(c);
    if (!rng.chance(0.3))
      return { method: "POST", path: `${prefix()}/customers/create`, body, mobile: c.mobile_number, headers: json };
    const idem = `load-${runId}-${++keyCount}`;
    const headers = { ...json, "Idempotency-Key": idem };
    const keyed = { key: idem, body };
    return { method: "POST", path: "/api/customers/create", body, mobile: c.mobile_number, headers, keyed };
  };

  const get = (rest: () => string) => (): Built => ({ path: prefix() + rest() });
  const phone = () => encodeURIComponent(pick(catalog.phones));
  const dates = () => (rng.chance(0.3) ? "&from_date=01-01-2025&to_date=31-12-2026" : "");
  const createQuery = (): Built => {
    const c = customer();
    return { method: "POST", path: `/api/customers/create?${asParams(c)}`, mobile: c.mobile_number };
  };
  const createForm = (): Built => {
    const c = customer();
    const headers = { "Content-Type": "application/x-www-form-urlencoded" };
    return { method: "POST", path: "/customers/create", body: asParams(c), mobile: c.mobile_number, headers };
  };
  // name, weight, the request.
  const endpoints: [string, number, () => Built][] = [
    ["GET /orders", 24, get(() => `/orders?phone_number=${phone()}&count=${pick([10, 25, 100])}${dates()}`)],
    ["GET /customers", 12, get(() => `/customers?count=${pick([10, 25, 50, 100])}&page=${upTo(4)}`)],
    [
      "GET /fetch-salesagent-by-pincode",
      14,
      get(() => `/fetch-salesagent-by-pincode?pincode=${pick(catalog.pincodes)}`),
    ],
    ["GET /area", 6, get(() => "/area")],
    ["GET /areas", 4, get(() => "/areas")],
    [
      "GET /postalcodes",
      6,
      () => ({
        path: rng.chance(0.5)
          ? `${prefix()}/postalcodes?code=${pick(catalog.pincodes)}`
          : `${prefix()}/postalcodes?count=50&page=${upTo(3)}`,
      }),
    ],
    ["GET /salesagents", 6, get(() => `/salesagents?count=${pick([10, 100])}`)],
    ["POST /customers/create (JSON)", 10, createJson],
    ["POST /customers/create (query)", 2, createQuery],
    ["POST /customers/create (form)", 2, createForm],
  ];

  const tally = {
    /** endpoint name -> status -> count */
    byEndpoint: new Map<string, Map<number, number>>(),
    /** Ids of the customers that creates answered 201 for (a replay names its original's id). */
    createdIds: new Set<number>(),
    created: 0,
    replayed: 0,
    /** A replay that named another customer than its original, or a 201 without an id. */
    createAnomalies: [] as string[],
    /** Every mobile number a create sent -> the status of its last answer (undefined: none came). */
    createsSent: new Map<string, number | undefined>(),
  };
  const totalWeight = endpoints.reduce((n, [, weight]) => n + weight, 0);
  const pickEndpoint = () => {
    let r = rng.next() * totalWeight;
    for (const e of endpoints) if ((r -= e[1]) < 0) return e;
    return endpoints.at(-1)!;
  };

  // One entry that every connection sends again and again, each time to an endpoint drawn by
  // weight. The context is the connection's own (one request in flight each): it remembers what
  // was sent until the answer comes.
  type Context = { endpoint?: string; sent?: Built };
  const request: autocannon.Request = {
    method: "GET",
    path: "/",
    setupRequest: (base, connection) => {
      const [name, , build] = pickEndpoint();
      const sent = build();
      Object.assign(connection as Context, { endpoint: name, sent });
      if (sent.mobile) tally.createsSent.set(sent.mobile, tally.createsSent.get(sent.mobile));
      const headers = { ...auth(key), ...sent.headers };
      return { ...base, method: sent.method ?? "GET", path: sent.path, body: sent.body, headers };
    },
    onResponse: (status, body, connection, headers) => {
      const { endpoint: name = "", sent } = connection as Context;
      const statuses = tally.byEndpoint.get(name) ?? new Map<number, number>();
      tally.byEndpoint.set(name, statuses.set(status, (statuses.get(status) ?? 0) + 1));
      if (sent?.mobile) tally.createsSent.set(sent.mobile, status);
      if (!sent?.mobile || status !== 201) return;
      let id: unknown;
      try {
        id = JSON.parse(body)?.data?.id;
      } catch {
        // reported below
      }
      if (typeof id !== "number") {
        tally.createAnomalies.push(`a 201 without a customer id: ${body.slice(0, 200)}`);
        return;
      }
      tally.created++;
      tally.createdIds.add(id);
      const replayed = Object.entries(headers ?? {}).find(([h]) => h.toLowerCase() === "idempotent-replayed")?.[1];
      if (replayed === "true") {
        tally.replayed++;
        const original = answeredKeyed.find((k) => k.key === sent.headers?.["Idempotency-Key"]);
        if (!original || original.id !== id)
          tally.createAnomalies.push(
            `a replay of ${sent.headers?.["Idempotency-Key"]} named customer ${id}, not ${original?.id}`,
          );
      } else if (sent.keyed) {
        answeredKeyed.push({ ...sent.keyed, id, mobile: sent.mobile });
      }
    },
  };
  return { requests: [request], tally };
}

type Tally = ReturnType<typeof buildMix>["tally"];

/**
 * Every customer a 201 named is listed by GET /customers (all pages); every customer listed now and
 * not before carries a number that one of our creates sent, and that create's answer was 201, or no
 * answer at all (still in flight when the run stopped: written or not, nobody was told).
 */
async function checkCreates(base: string, key: string, before: Set<number>, tally: Tally) {
  const listed: { id: number; contactperson_number: string }[] = await listAll(base, key, "customers");
  const listedIds = new Set(listed.map((c) => c.id));
  const missing = [...tally.createdIds].filter((id) => !listedIds.has(id)).sort((a, b) => a - b);
  /** New rows that no 201 explains: a create answered otherwise that wrote, or one we never sent. */
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
    /** Distinct customers that 201s named. */
    created: tally.createdIds.size,
    missing,
    /** Creates still in flight when the run stopped, and how many of them were written. */
    cutOff: { sent: cutOffSent, written },
    unexplained,
  };
}

function report(result: autocannon.Result, tally: Tally, check: Awaited<ReturnType<typeof checkCreates>>) {
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
