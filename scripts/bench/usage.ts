// `npm run bench -- usage`: usage recording's cost on the request path. The same endpoints against API servers that
// differ only in USAGE_FLUSH_SECONDS (wrangler.toml's 60 s; "off"; optionally "0", a write after every request),
// each on its own copy of the same data, started together and loaded in turn, the order alternating from round to
// round, so that the machine's drift hits every server alike.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { createBody } from "../../test/fixtures/create-body.ts";
import { largeState, type ApiOptions } from "./api.ts";
import { type Figures, mean, median, type RequestParts, tableHead } from "./cannon.ts";
import { alternating, auth, freshMobiles, type PerfRun, query, type Server } from "./harness.ts";

/** A USAGE_FLUSH_SECONDS value: "" is wrangler.toml's (60). */
export type UsageMode = string;

export interface UsageEndpoint {
  label: string;
  path: string;
  request?: () => RequestParts;
}

export interface UsageComparison {
  modes: UsageMode[];
  rounds: number;
  /** Each endpoint's runs: mode -> one Figures a round. */
  endpoints: { label: string; runs: Map<UsageMode, Figures[]> }[];
}

export const modeName = (mode: UsageMode) =>
  mode === ""
    ? "on, every 60 s (wrangler.toml)"
    : mode === "off"
      ? "off"
      : mode === "0"
        ? "on, after every request"
        : `on, every ${mode} s`;

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

export async function usageFigures(perf: PerfRun, opts: ApiOptions & { modes: UsageMode[] }): Promise<string[]> {
  const { state, key, targets } = await largeState(perf, opts);
  const run = perf.runner(opts.load);
  const servers = new Map<UsageMode, Server>();
  const request = await createRequests(state);
  await Promise.all(
    opts.modes.map(async (mode) => {
      const copy = join(perf.dir, `usage-state-${mode || "60"}`);
      cpSync(state, copy, { recursive: true });
      servers.set(mode, await perf.serveApi(`api-usage-${mode || "60"}`, "dev", copy, { USAGE_FLUSH_SECONDS: mode }));
    }),
  );
  const endpoints: UsageEndpoint[] = [
    { label: "GET /area (cached)", path: "/api/area" },
    {
      label: "GET /fetch-salesagent-by-pincode (cached)",
      path: `/api/fetch-salesagent-by-pincode?pincode=${targets.pincode}`,
    },
    { label: "GET /customers (10)", path: "/api/customers?count=10" },
    { label: `GET /orders (10 of ${targets.orders})`, path: `/api/orders?phone_number=${targets.phone}&count=10` },
    { label: "POST /customers/create (JSON)", path: "/api/customers/create", request },
  ];
  const comparison: UsageComparison = { modes: opts.modes, rounds: opts.rounds, endpoints: [] };
  for (const e of endpoints) {
    const runs = await alternating(opts.modes, opts.rounds, (mode) =>
      run(`usage ${mode || "60"}: ${e.label}`, servers.get(mode)!, e.path, auth(key), e.request),
    );
    comparison.endpoints.push({ label: e.label, runs });
  }
  for (const line of usageLines(comparison)) perf.step(line);
  return usageMarkdown(comparison);
}

const fixed = (n: number, digits: number) => n.toFixed(digits);
const problems = (runs: Figures[]) => {
  const failed = runs.reduce((s, f) => s + f.failures, 0);
  const probe = runs.find((f) => f.status < 200 || f.status > 299);
  return (failed ? ` (**${failed} failed**)` : "") + (probe ? ` (**probe answered ${probe.status}**)` : "");
};

/** Each round's req/s of `mode` over the baseline's in the same round (paired: they ran back to back). */
function ratios(runs: Map<UsageMode, Figures[]>, mode: UsageMode, baseline: UsageMode): number[] {
  const base = runs.get(baseline)!;
  return runs.get(mode)!.map((f, i) => f.rps / base[i]!.rps);
}

/** The lines, one per mode other than "off": throughput, latency, CPU and D1 work against "off". */
export function usageLines(c: UsageComparison): string[] {
  if (!c.modes.includes("off")) return [];
  return c.modes
    .filter((m) => m !== "off")
    .map((mode) => {
      const all = c.endpoints.flatMap((e) => ratios(e.runs, mode, "off"));
      const p50 = mean(
        c.endpoints.map((e) => mean(e.runs.get(mode)!.map((f) => f.p50)) / mean(e.runs.get("off")!.map((f) => f.p50))),
      );
      const cpu = c.endpoints.map((e) => {
        const of = (m: UsageMode) => e.runs.get(m)!.map((f) => f.cpuMs);
        const on = of(mode);
        const off = of("off");
        return on.every((x): x is number => x !== null) && off.every((x): x is number => x !== null)
          ? mean(on) / mean(off)
          : null;
      });
      const cpuText = cpu.every((x): x is number => x !== null) ? `, CPU per request ${fixed(mean(cpu), 2)}x` : "";
      const sameWork = c.endpoints.every((e) => e.runs.get(mode)![0]!.work === e.runs.get("off")![0]!.work);
      return (
        `Usage recording ${modeName(mode)} against off, ${c.endpoints.length} endpoints x ${c.rounds} rounds: req/s ${fixed(median(all), 2)}x ` +
        `(median of the paired rounds; ${fixed(Math.min(...all), 2)} to ${fixed(Math.max(...all), 2)}), p50 ${fixed(p50, 2)}x${cpuText}; ` +
        `D1 round trips and rows read per request ${sameWork ? "the same" : "**DIFFERENT**"} (Server-Timing)`
      );
    });
}

export function usageMarkdown(c: UsageComparison): string[] {
  const lines = [
    "## Usage recording on the request path",
    "",
    "The same endpoints against API servers (`npm run dev`, each on its own copy of the large data, running at the same time) that " +
      "differ only in USAGE_FLUSH_SECONDS, loaded in turn, their order alternating from round to round. req/s: the mean of the rounds, " +
      "each round's in brackets; against off: the median of each round's req/s over off's in the same round; p50/p99 and CPU: means of the rounds.",
    "",
    ...usageLines(c).map((l) => `**${l}**`),
    "",
    ...tableHead(
      "endpoint",
      "usage recording",
      "D1 work per request (Server-Timing)",
      "req/s (rounds)",
      "against off",
      "p50 ms",
      "p99 ms",
      "CPU ms/request",
    ),
  ];
  for (const e of c.endpoints) {
    for (const mode of c.modes) {
      const runs = e.runs.get(mode)!;
      const cpu = runs.map((f) => f.cpuMs);
      const vsOff = mode === "off" || !c.modes.includes("off") ? "" : fixed(median(ratios(e.runs, mode, "off")), 2);
      lines.push(
        `| ${e.label}${problems(runs)} | ${modeName(mode)} | ${runs[0]!.work} | ${fixed(mean(runs.map((f) => f.rps)), 0)} ` +
          `(${runs.map((f) => fixed(f.rps, 0)).join(", ")}) | ${vsOff} | ${fixed(mean(runs.map((f) => f.p50)), 1)} | ` +
          `${fixed(mean(runs.map((f) => f.p99)), 1)} | ${cpu.every((x): x is number => x !== null) ? fixed(mean(cpu), 2) : "n/a"} |`,
      );
    }
  }
  lines.push("");
  return lines;
}
