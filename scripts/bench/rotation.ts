// `npm run bench -- rotation`: a key whose rotation is due against an ordinary key on one server (demo data), and
// the D1 round trips each request makes, whose goal is 0: the header comes from KV, never from D1.
import { join } from "node:path";
import { DEMO_OPTIONS } from "../dataset/index.ts";
import { type LoadOptions, mean, median, tableHead } from "./cannon.ts";
import { alternating, auth, importInto, makeKey, type PerfRun } from "./harness.ts";
import { run } from "../lib/processes.ts";

const PATH = "/api/area";

/** The probe: the header and the D1 round trips of one request with the key (after a warm-up one). */
async function probe(url: string, secret: string): Promise<{ header: string | null; d1: string }> {
  const headers = auth(secret);
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
  const keys = { due, ordinary } as const;
  const url = `${server.url}${PATH}`;
  const probes = { due: await probe(url, due), ordinary: await probe(url, ordinary) };
  const measure = perf.runner(load);
  const runs = await alternating(["ordinary", "due"] as const, rounds, (which) =>
    measure(`rotation: ${which} key`, server, PATH, auth(keys[which])),
  );
  await server.stop();
  const ratios = runs.get("due")!.map((f, i) => f.rps / runs.get("ordinary")![i]!.rps);
  const summary =
    `A due key against an ordinary key, GET /area (cached), ${rounds} rounds: req/s ${median(ratios).toFixed(2)}x ` +
    `(median of the paired rounds; ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}); ` +
    `D1 round trips per request: due ${probes.due.d1}, ordinary ${probes.ordinary.d1} (goal 0); ` +
    `Key-Rotation: ${probes.due.header ?? "absent"} on the due key, ${probes.ordinary.header ?? "absent"} on the ordinary one`;
  perf.step(summary);
  const failures = [...runs.get("due")!, ...runs.get("ordinary")!].reduce((s, f) => s + f.failures, 0);
  return [
    "## Key rotation on the request path",
    "",
    `**${summary}**${failures ? ` (**${failures} failed**)` : ""}`,
    "",
    ...tableHead("key", "D1 round trips per request", "Key-Rotation", "req/s (rounds)", "p50 ms", "p99 ms"),
    ...(["ordinary", "due"] as const).map(
      (which) =>
        `| ${which} | ${probes[which].d1} | ${probes[which].header ?? "-"} | ${mean(runs.get(which)!.map((f) => f.rps)).toFixed(0)} ` +
        `(${runs
          .get(which)!
          .map((f) => f.rps.toFixed(0))
          .join(", ")}) | ${mean(runs.get(which)!.map((f) => f.p50)).toFixed(1)} | ` +
        `${mean(runs.get(which)!.map((f) => f.p99)).toFixed(1)} |`,
    ),
    "",
  ];
}
