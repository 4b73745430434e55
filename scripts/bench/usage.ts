// Usage recording's cost on the request path: the same endpoints against API servers that differ only
// in USAGE_FLUSH_SECONDS (wrangler.toml's 60 s, as production has it; "off"; optionally "0", a write
// after every request), each on its own copy of the same data, started together and loaded in turn,
// the order alternating from round to round, so that the machine's drift hits every server alike.
import { createBody } from "../../test/fixtures/create-body.ts";
import { type Figures, mean, median, type RequestParts, tableHead } from "./cannon.ts";
import { freshMobiles } from "./harness.ts";
import type { CreateTemplate } from "./state.ts";

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

/** JSON creates, each with a mobile number that no customer has (nor any earlier create of the run). */
export function createRequests(template: CreateTemplate): () => RequestParts {
  const freshMobile = freshMobiles(template.takenPhones);
  return () => {
    const mobile = freshMobile();
    const { areaId: area_id, postalcodeId: postalcode_id, salesagentId: salesagent_id } = template;
    const body = createBody(mobile, {
      company_name: `Bench Traders ${mobile.slice(-5)}`,
      contactpersons_name: "Bench Tester",
      address: "1 Benchmark Road",
      area_id,
      postalcode_id,
      salesagent_id,
    });
    return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  };
}

/** Runs every endpoint on every server, round by round, the servers' order reversed every other round. */
export async function compareUsage(
  modes: UsageMode[],
  rounds: number,
  endpoints: UsageEndpoint[],
  run: (mode: UsageMode, endpoint: UsageEndpoint) => Promise<Figures>,
): Promise<UsageComparison> {
  const results = endpoints.map((e) => ({
    label: e.label,
    runs: new Map(modes.map((m): [UsageMode, Figures[]] => [m, []])),
  }));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? modes : [...modes].reverse();
    for (const [i, endpoint] of endpoints.entries()) {
      for (const mode of order) results[i]!.runs.get(mode)!.push(await run(mode, endpoint));
    }
  }
  return { modes, rounds, endpoints: results };
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
