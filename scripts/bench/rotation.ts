// What key rotation costs on the request path (docs/performance.md): a key whose rotation is due
// against an ordinary key on one server (`npm run dev` on the demo data), loaded in turn, their order
// alternating from round to round; and the D1 round trips each request makes (Server-Timing), whose
// goal is 0: the header comes from the KV copy and the fleet's due set, never from D1.
import { loadavg } from "node:os";
import { join } from "node:path";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import { type Figures, type LoadOptions, mean, measure, median, tableHead } from "./cannon.ts";
import { makeKey, type PerfRun } from "./harness.ts";
import { run } from "../lib/processes.ts";
import { importInto } from "./state.ts";

const PATH = "/api/area";

/** The probe: the header and the D1 round trips of one request with the key (after a warm-up one). */
async function probe(url: string, secret: string): Promise<{ header: string | null; d1: string }> {
  const headers = { Authorization: `Bearer ${secret}` };
  await (await fetch(url, { headers })).arrayBuffer();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const timing = res.headers.get("Server-Timing") ?? "";
  return {
    header: res.headers.get("Key-Rotation"),
    d1: /d1;dur=[\d.]+;desc="(\d+) round trips"/.exec(timing)?.[1] ?? "?",
  };
}

/** The markdown section, its lines also printed as steps. */
export async function compareRotation(perf: PerfRun, load: LoadOptions, rounds: number): Promise<string[]> {
  const loadBefore = loadavg()[0]!;
  const state = join(perf.dir, "rotation-state");
  perf.step("npm run db:import (demo dataset) ...");
  await importInto(state, DEMO_OPTIONS.out);
  // The due key is made and marked first (rotate --mode test), then the ordinary one.
  const due = await makeKey(state, "bench due");
  const marked = await run("npm", ["run", "--silent", "keys", "--", "rotate", "--mode", "test", "--json"], {
    PERSIST_DIR: state,
  });
  if (marked.code !== 0) throw new Error(`npm run keys -- rotate failed:\n${marked.stdout}\n${marked.stderr}`);
  const ordinary = await makeKey(state, "bench ordinary");
  const server = await perf.serveApi("api-rotation", "dev", state);
  const url = `${server.url}${PATH}`;
  const keys = { due, ordinary } as const;
  const probes = { due: await probe(url, due), ordinary: await probe(url, ordinary) };
  const runs: Record<keyof typeof keys, Figures[]> = { due: [], ordinary: [] };
  for (let round = 0; round < rounds; round++) {
    const order: (keyof typeof keys)[] = round % 2 === 0 ? ["ordinary", "due"] : ["due", "ordinary"];
    for (const which of order) {
      perf.step(`rotation: ${which} key, round ${round + 1}: ${load.seconds} s ...`);
      const figures = await measure(
        { label: which, url, headers: { Authorization: `Bearer ${keys[which]}` }, cpuSeconds: server.cpuSeconds },
        load,
      );
      perf.step(`rotation: ${which} key: ${Math.round(figures.rps)} req/s, p50 ${figures.p50} ms`);
      runs[which].push(figures);
    }
  }
  await server.stop();
  const ratios = runs.due.map((f, i) => f.rps / runs.ordinary[i]!.rps);
  const summary =
    `A due key against an ordinary key, GET /area (cached), ${rounds} rounds: req/s ${median(ratios).toFixed(2)}x ` +
    `(median of the paired rounds; ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}); ` +
    `D1 round trips per request: due ${probes.due.d1}, ordinary ${probes.ordinary.d1} (goal 0); ` +
    `Key-Rotation: ${probes.due.header ?? "absent"} on the due key, ${probes.ordinary.header ?? "absent"} on the ordinary one`;
  perf.step(summary);
  const failures = [...runs.due, ...runs.ordinary].reduce((s, f) => s + f.failures, 0);
  return [
    "## Key rotation on the request path",
    "",
    `**${summary}**${failures ? ` (**${failures} failed**)` : ""}`,
    "",
    `1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (2 cores: above 2, req/s is noise; the round trips are not).`,
    "",
    ...tableHead("key", "D1 round trips per request", "Key-Rotation", "req/s (rounds)", "p50 ms", "p99 ms"),
    ...(["ordinary", "due"] as const).map(
      (which) =>
        `| ${which} | ${probes[which].d1} | ${probes[which].header ?? "-"} | ${mean(runs[which].map((f) => f.rps)).toFixed(0)} ` +
        `(${runs[which].map((f) => f.rps.toFixed(0)).join(", ")}) | ${mean(runs[which].map((f) => f.p50)).toFixed(1)} | ` +
        `${mean(runs[which].map((f) => f.p99)).toFixed(1)} |`,
    ),
    "",
  ];
}
