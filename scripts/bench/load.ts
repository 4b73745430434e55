// `npm run bench -- load`: a bounded load run against `npm start` on a temporary PERSIST_DIR (migrations, demo
// data) with rate limiting off: a weighted mix of every endpoint (creates included) by autocannon, its
// throughput, latency, errors and answers by status, then a check that no create was lost. Fails on any 5xx,
// unanswered request or lost create.
import { join } from "node:path";
import { cannon } from "./cannon.ts";
import { makeKey, type PerfRun } from "./harness.ts";
import { checkCreates, readCatalog } from "./load-catalog.ts";
import { buildMix } from "./load-mix.ts";
import { report, type Verdict } from "./load-report.ts";

export async function loadRun(run: PerfRun, opts: { duration: number; connections: number }): Promise<Verdict> {
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
