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

export interface Tally {
  /** endpoint name -> status -> count */
  byEndpoint: Map<string, Map<number, number>>;
  /** Ids of the customers that creates answered 201 for (a replay names its original's id). */
  createdIds: Set<number>;
  created: number;
  replayed: number;
  /** A replay that named another customer than its original, or a 201 without an id. */
  createAnomalies: string[];
  /** Every mobile number a create sent -> the status of its last answer (undefined: none came). */
  createsSent: Map<string, number | undefined>;
}

interface Built {
  method: "GET" | "POST";
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** For a keyed create: remembered once answered, so that it can be replayed. */
  keyed?: { key: string; body: string };
  /** For a create: the mobile number it sends. */
  mobile?: string;
}

type Context = { endpoint?: string; sent?: Built };

interface Endpoint {
  name: string;
  weight: number;
  build: () => Built;
}

export function buildMix(catalog: Catalog, key: string, runId: string) {
  // The same mix order on every run.
  const rng = new Rng(20260314);
  const random = () => rng.next();
  const pick = <T>(list: readonly T[]): T => rng.pick(list);
  const prefix = () => (random() < 0.5 ? "/api" : "");
  const freshMobile = freshMobiles(catalog.takenPhones);
  let keyCount = 0;
  const answeredKeyed: { key: string; body: string; id: number; mobile?: string }[] = [];

  const customer = () => {
    const mobile_number = freshMobile();
    return {
      company_name: `Load Test Traders ${mobile_number.slice(-5)}`,
      contactpersons_name: "Load Tester",
      mobile_number,
      address: `${1 + Math.floor(random() * 200)} Benchmark Road`,
      area_id: pick(catalog.areaIds),
      postalcode_id: pick(catalog.postalcodeIds),
      salesagent_id: pick(catalog.salesagentIds),
      ...(random() < 0.3
        ? { gst_treatment: "Registered", gstin: "27AAPFU0939F1ZV" }
        : { gst_treatment: "Unregistered" }),
    };
  };
  const asParams = (c: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(c).map(([k, v]): [string, string] => [k, String(v)])).toString();

  const endpoints: Endpoint[] = [
    {
      name: "GET /orders",
      weight: 24,
      build: () => {
        const dates = random() < 0.3 ? "&from_date=01-01-2025&to_date=31-12-2026" : "";
        return {
          method: "GET",
          path: `${prefix()}/orders?phone_number=${encodeURIComponent(pick(catalog.phones))}&count=${pick([10, 25, 100])}${dates}`,
        };
      },
    },
    {
      name: "GET /customers",
      weight: 12,
      build: () => ({
        method: "GET",
        path: `${prefix()}/customers?count=${pick([10, 25, 50, 100])}&page=${1 + Math.floor(random() * 4)}`,
      }),
    },
    {
      name: "GET /fetch-salesagent-by-pincode",
      weight: 14,
      build: () => ({
        method: "GET",
        path: `${prefix()}/fetch-salesagent-by-pincode?pincode=${pick(catalog.pincodes)}`,
      }),
    },
    { name: "GET /area", weight: 6, build: () => ({ method: "GET", path: `${prefix()}/area` }) },
    { name: "GET /areas", weight: 4, build: () => ({ method: "GET", path: `${prefix()}/areas` }) },
    {
      name: "GET /postalcodes",
      weight: 6,
      build: () => ({
        method: "GET",
        path:
          random() < 0.5
            ? `${prefix()}/postalcodes?code=${pick(catalog.pincodes)}`
            : `${prefix()}/postalcodes?count=50&page=${1 + Math.floor(random() * 3)}`,
      }),
    },
    {
      name: "GET /salesagents",
      weight: 6,
      build: () => ({ method: "GET", path: `${prefix()}/salesagents?count=${pick([10, 100])}` }),
    },
    {
      name: "POST /customers/create (JSON)",
      weight: 10,
      build: (): Built => {
        const replay = answeredKeyed.length > 0 && random() < 0.1 ? pick(answeredKeyed) : undefined;
        if (replay) {
          return {
            method: "POST",
            path: "/api/customers/create",
            body: replay.body,
            mobile: replay.mobile,
            headers: { "Content-Type": "application/json", "Idempotency-Key": replay.key },
          };
        }
        const c = customer();
        const body = JSON.stringify(c);
        if (random() < 0.3) {
          const idem = `load-${runId}-${++keyCount}`;
          return {
            method: "POST",
            path: "/api/customers/create",
            body,
            mobile: c.mobile_number,
            headers: { "Content-Type": "application/json", "Idempotency-Key": idem },
            keyed: { key: idem, body },
          };
        }
        return {
          method: "POST",
          path: `${prefix()}/customers/create`,
          body,
          mobile: c.mobile_number,
          headers: { "Content-Type": "application/json" },
        };
      },
    },
    {
      name: "POST /customers/create (query)",
      weight: 2,
      build: () => {
        const c = customer();
        return { method: "POST", path: `/api/customers/create?${asParams(c)}`, mobile: c.mobile_number };
      },
    },
    {
      name: "POST /customers/create (form)",
      weight: 2,
      build: () => {
        const c = customer();
        return {
          method: "POST",
          path: "/customers/create",
          body: asParams(c),
          mobile: c.mobile_number,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        };
      },
    },
  ];

  const tally: Tally = {
    byEndpoint: new Map(),
    createdIds: new Set(),
    created: 0,
    replayed: 0,
    createAnomalies: [],
    createsSent: new Map(),
  };
  const count = (name: string, status: number) => {
    const statuses = tally.byEndpoint.get(name) ?? new Map<number, number>();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    tally.byEndpoint.set(name, statuses);
  };

  const totalWeight = endpoints.reduce((n, e) => n + e.weight, 0);
  const pickEndpoint = () => {
    let r = random() * totalWeight;
    for (const e of endpoints) if ((r -= e.weight) < 0) return e;
    return endpoints.at(-1)!;
  };

  // One entry that every connection sends again and again, each time to an endpoint drawn by
  // weight. The context is the connection's own (one request in flight each): it remembers what
  // was sent until the answer comes.
  const request: CannonRequest = {
    method: "GET",
    path: "/",
    setupRequest: (base, connection) => {
      const context = connection as Context;
      const endpoint = pickEndpoint();
      const built = endpoint.build();
      context.endpoint = endpoint.name;
      context.sent = built;
      if (built.mobile) tally.createsSent.set(built.mobile, tally.createsSent.get(built.mobile));
      return {
        ...base,
        method: built.method,
        path: built.path,
        body: built.body,
        headers: { Authorization: `Bearer ${key}`, ...built.headers },
      };
    },
    onResponse: (status, body, connection, headers) => {
      const { endpoint: name = "", sent } = connection as Context;
      count(name, status);
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
