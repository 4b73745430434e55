// `npm run bench -- usage` and `rotation`: the same endpoints on variants that differ in one thing (API servers
// by USAGE_FLUSH_SECONDS, each on its own copy of the api suite's data; or two keys on one server, one of them
// rotation due), loaded in turn, their order alternating from round to round so that the machine's drift hits
// every variant alike; each against the first.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { createBody } from "../../test/fixtures/create-body.ts";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import { run } from "../lib/processes.ts";
import { type ApiOptions, largeState } from "./api.ts";
import { type Figures, type LoadOptions, mean, median, type RequestParts, tableHead } from "./cannon.ts";
import { auth, freshMobiles, importInto, makeKey, type PerfRun, query, type Server } from "./harness.ts";

interface Variant {
  name: string;
  server: Server;
  key: string;
}

interface Endpoint {
  label: string;
  path: string;
  request?: () => RequestParts;
}

const modeName = (mode: string) =>
  ({ "": "on, every 60 s (wrangler.toml)", off: "off", "0": "on, after every request" })[mode] ?? `on, every ${mode} s`;

/** `--usage`: one `npm run dev` per USAGE_FLUSH_SECONDS value ("" for wrangler.toml's 60), "off" first. */
export async function usageFigures(perf: PerfRun, opts: ApiOptions & { modes: string[] }): Promise<string[]> {
  const { state, key, targets } = await largeState(perf, opts);
  const request = await createRequests(state);
  const modes = [...opts.modes].sort((a, b) => Number(b === "off") - Number(a === "off"));
  const variants = await Promise.all(
    modes.map(async (mode): Promise<Variant> => {
      const copy = join(perf.dir, `usage-state-${mode || "60"}`);
      cpSync(state, copy, { recursive: true });
      const env = { USAGE_FLUSH_SECONDS: mode };
      return { name: modeName(mode), server: await perf.serveApi(`api-usage-${mode || "60"}`, "dev", copy, env), key };
    }),
  );
  const endpoints: Endpoint[] = [
    { label: "GET /area (cached)", path: "/api/area" },
    {
      label: "GET /fetch-salesagent-by-pincode (cached)",
      path: `/api/fetch-salesagent-by-pincode?pincode=${targets.pincode}`,
    },
    { label: "GET /customers (10)", path: "/api/customers?count=10" },
    { label: `GET /orders (10 of ${targets.orders})`, path: `/api/orders?phone_number=${targets.phone}&count=10` },
    { label: "POST /customers/create (JSON)", path: "/api/customers/create", request },
  ];
  return ["## Usage recording on the request path", "", ...(await compare(perf, opts, variants, endpoints))];
}

/** A key marked rotation due (before the server starts, so that the due set is in KV) against an ordinary one. */
export async function rotationFigures(perf: PerfRun, opts: { load: LoadOptions; rounds: number }): Promise<string[]> {
  const state = join(perf.dir, "rotation-state");
  perf.step("npm run db:import (demo dataset) ...");
  await importInto(state, DEMO_OPTIONS.out);
  const due = await makeKey(state, "bench due");
  const marked = await run("npm", ["run", "--silent", "keys", "--", "rotate", "--mode", "test", "--json"], {
    PERSIST_DIR: state,
  });
  if (marked.code !== 0) throw new Error(`npm run keys -- rotate failed:\n${marked.stdout}\n${marked.stderr}`);
  const ordinary = await makeKey(state, "bench ordinary");
  const server = await perf.serveApi("api-rotation", "dev", state);
  const header = async (key: string) =>
    (await fetch(`${server.url}/api/area`, { headers: auth(key) })).headers.get("Key-Rotation") ?? "absent";
  const headers = `Key-Rotation: ${await header(due)} on the due key, ${await header(ordinary)} on the ordinary one`;
  perf.step(headers);
  const variants = [
    { name: "ordinary key", server, key: ordinary },
    { name: "due key", server, key: due },
  ];
  const lines = await compare(perf, opts, variants, [{ label: "GET /area (cached)", path: "/api/area" }]);
  return ["## Key rotation on the request path (goal: 0 D1 round trips a request)", "", `**${headers}**`, "", ...lines];
}

/**
 * Each endpoint on each variant in turn, round after round, the order reversed every other round; req/s as each
 * round's ratio to the first variant's run beside it, p50, p99 and CPU ms a request as means of the rounds.
 */
async function compare(
  perf: PerfRun,
  opts: { load: LoadOptions; rounds: number },
  variants: Variant[],
  endpoints: Endpoint[],
): Promise<string[]> {
  const measure = perf.runner(opts.load);
  const results: { label: string; runs: Figures[][] }[] = [];
  for (const e of endpoints) {
    const runs: Figures[][] = variants.map(() => []);
    for (let round = 0; round < opts.rounds; round++) {
      const order = variants.map((_, i) => i);
      for (const i of round % 2 === 0 ? order : order.reverse()) {
        const { name, server, key } = variants[i]!;
        runs[i]!.push(await measure(`${name}: ${e.label}`, server, e.path, auth(key), e.request));
      }
    }
    results.push({ label: e.label, runs });
  }
  const ratios = (runs: Figures[][], i: number) => runs[i]!.map((f, round) => f.rps / runs[0]![round]!.rps);
  const of = (runs: Figures[], pick: (f: Figures) => number | null) => {
    const xs = runs.map(pick);
    return xs.every((x): x is number => x !== null) ? mean(xs) : null;
  };
  const fixed = (n: number | null, digits: number) => (n === null ? "n/a" : n.toFixed(digits));
  const times = (n: number | null) => (n === null ? "n/a" : `${n.toFixed(2)}x`);
  const summaries = variants.slice(1).map(({ name }, k) => {
    const i = k + 1;
    const all = results.flatMap((e) => ratios(e.runs, i));
    const against = (pick: (f: Figures) => number | null) => {
      const each = results.map((e) => [of(e.runs[i]!, pick), of(e.runs[0]!, pick)]);
      return each.every(([a, b]) => a !== null && b !== null) ? mean(each.map(([a, b]) => a! / b!)) : null;
    };
    const sameWork = results.every((e) => e.runs[i]![0]!.work === e.runs[0]![0]!.work);
    return (
      `${name} against ${variants[0]!.name}, ${results.length} endpoints x ${opts.rounds} rounds: req/s ` +
      `${median(all).toFixed(2)}x (median of the paired rounds; ${Math.min(...all).toFixed(2)} to ${Math.max(...all).toFixed(2)}), ` +
      `p50 ${times(against((f) => f.p50))}, CPU per request ${times(against((f) => f.cpuMs))}; ` +
      `D1 round trips and rows read per request ${sameWork ? "the same" : "**DIFFERENT**"} (Server-Timing)`
    );
  });
  for (const line of summaries) perf.step(line);
  const rows = results.flatMap((e) =>
    variants.map(({ name }, i) => {
      const runs = e.runs[i]!;
      const failed = runs.reduce((s, f) => s + f.failures, 0);
      const probe = runs.find((f) => f.status < 200 || f.status > 299);
      const problems =
        (failed ? ` (**${failed} failed**)` : "") + (probe ? ` (**probe answered ${probe.status}**)` : "");
      return (
        `| ${e.label}${problems} | ${name} | ${runs[0]!.work} | ${fixed(
          of(runs, (f) => f.rps),
          0,
        )} ` +
        `(${runs.map((f) => f.rps.toFixed(0)).join(", ")}) | ${i === 0 ? "" : fixed(median(ratios(e.runs, i)), 2)} | ` +
        `${fixed(
          of(runs, (f) => f.p50),
          1,
        )} | ${fixed(
          of(runs, (f) => f.p99),
          1,
        )} | ${fixed(
          of(runs, (f) => f.cpuMs),
          2,
        )} |`
      );
    }),
  );
  return [
    ...summaries.map((l) => `**${l}**`),
    "",
    ...tableHead(
      "endpoint",
      "variant",
      "D1 work per request",
      "req/s (rounds)",
      "against the first",
      "p50 ms",
      "p99 ms",
      "CPU ms/request",
    ),
    ...rows,
    "",
  ];
}

/** JSON creates like an existing customer's, each with a mobile number that no customer has. */
async function createRequests(state: string): Promise<() => RequestParts> {
  const [row] = await query<{ area_id: number; postalcode_id: number; salesagent_id: number }>(
    state,
    "SELECT a.area_id, a.postalcode_id, c.salesagent_id FROM customers c " +
      "JOIN customer_addresses a ON a.customer_id = c.id WHERE c.salesagent_id IS NOT NULL ORDER BY c.id LIMIT 1",
  );
  if (!row) throw new Error("the imported dataset has no customer with an address and a sales agent");
  const taken = await query<{ phone: string }>(
    state,
    "SELECT phone_key AS phone FROM customers WHERE phone_key IS NOT NULL",
  );
  const freshMobile = freshMobiles(new Set(taken.map((p) => p.phone)));
  return () => {
    const mobile = freshMobile();
    const body = createBody(mobile, {
      company_name: `Bench Traders ${mobile.slice(-5)}`,
      contactpersons_name: "Bench Tester",
      address: "1 Benchmark Road",
      ...row,
    });
    return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  };
}
