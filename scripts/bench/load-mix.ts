// The weighted mix of `npm run bench -- load`: every endpoint, with parameters drawn from the dataset, and
// creates with fresh valid mobile numbers (JSON, query-string and form bodies; some with an
// Idempotency-Key, some of those sent again to be replayed). Tallies every answer per endpoint.
import { Rng } from "../dataset/prng.ts";
import type { CannonRequest } from "./cannon.ts";
import { freshMobiles } from "./harness.ts";

export interface Catalog {
  /** The ids GET /customers lists before the load. */
  customerIds: Set<number>;
  /** Contact numbers as stored (mixed formats: the API normalizes them). */
  phones: string[];
  pincodes: string[];
  postalcodeIds: number[];
  areaIds: number[];
  salesagentIds: number[];
  /** Normalized numbers of existing customers: a create must not reuse one (that is a 409). */
  takenPhones: Set<string>;
}

export type Tally = ReturnType<typeof buildMix>["tally"];

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

export function buildMix(catalog: Catalog, key: string, runId: string) {
  // The same mix order on every run.
  const rng = new Rng(20260314);
  const pick = <T>(list: readonly T[]): T => rng.pick(list);
  const prefix = () => (rng.chance(0.5) ? "/api" : "");
  const upTo = (n: number) => 1 + Math.floor(rng.next() * n);
  const freshMobile = freshMobiles(catalog.takenPhones);
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

  // name, weight, the request.
  const endpoints: [string, number, () => Built][] = [
    [
      "GET /orders",
      24,
      () => ({
        path:
          `${prefix()}/orders?phone_number=${encodeURIComponent(pick(catalog.phones))}&count=${pick([10, 25, 100])}` +
          (rng.chance(0.3) ? "&from_date=01-01-2025&to_date=31-12-2026" : ""),
      }),
    ],
    ["GET /customers", 12, () => ({ path: `${prefix()}/customers?count=${pick([10, 25, 50, 100])}&page=${upTo(4)}` })],
    [
      "GET /fetch-salesagent-by-pincode",
      14,
      () => ({ path: `${prefix()}/fetch-salesagent-by-pincode?pincode=${pick(catalog.pincodes)}` }),
    ],
    ["GET /area", 6, () => ({ path: `${prefix()}/area` })],
    ["GET /areas", 4, () => ({ path: `${prefix()}/areas` })],
    [
      "GET /postalcodes",
      6,
      () => ({
        path: rng.chance(0.5)
          ? `${prefix()}/postalcodes?code=${pick(catalog.pincodes)}`
          : `${prefix()}/postalcodes?count=50&page=${upTo(3)}`,
      }),
    ],
    ["GET /salesagents", 6, () => ({ path: `${prefix()}/salesagents?count=${pick([10, 100])}` })],
    ["POST /customers/create (JSON)", 10, createJson],
    [
      "POST /customers/create (query)",
      2,
      () => {
        const c = customer();
        return { method: "POST", path: `/api/customers/create?${asParams(c)}`, mobile: c.mobile_number };
      },
    ],
    [
      "POST /customers/create (form)",
      2,
      () => {
        const c = customer();
        const headers = { "Content-Type": "application/x-www-form-urlencoded" };
        return { method: "POST", path: "/customers/create", body: asParams(c), mobile: c.mobile_number, headers };
      },
    ],
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
  const request: CannonRequest = {
    method: "GET",
    path: "/",
    setupRequest: (base, connection) => {
      const [name, , build] = pickEndpoint();
      const sent = build();
      Object.assign(connection as Context, { endpoint: name, sent });
      if (sent.mobile) tally.createsSent.set(sent.mobile, tally.createsSent.get(sent.mobile));
      const headers = { Authorization: `Bearer ${key}`, ...sent.headers };
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
