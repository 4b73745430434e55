// `npm run load`: a bounded load run against a real `wrangler dev` on 127.0.0.1, not a test.
// Starts its own server with `npm start` on a temporary PERSIST_DIR (migrations, demo data) with
// rate limiting off, makes a key with `npm run keys`, runs a weighted mix of every endpoint (creates
// included) with autocannon, prints throughput, latency, errors and answers by status, then checks
// that no create was lost. Exits non-zero on any 5xx, unanswered request or lost create.
import { join } from "node:path";
import { type CommandLine, parseCommandLine, wholeNumber } from "./lib/cli.ts";
import { cannon } from "./perf/cannon.ts";
import { makeKey, runPerf } from "./perf/harness.ts";
import { checkCreates, readCatalog } from "./load/catalog.ts";
import { buildMix } from "./load/mix.ts";
import { report } from "./load/report.ts";

const COMMAND: CommandLine = {
  invocation: "npm run load --",
  usage: `Usage: npm run load [-- --duration SECONDS] [--connections N] [--keep]
  A load run (not a test) against npm start on a temporary PERSIST_DIR and a free port.
  --duration SECONDS   1 to 3600 (default 60)
  --connections N      1 to 1024 (default 32)
  --keep               keep the temporary state folder (and the server's log) afterwards`,
};

const OPTIONS = {
  duration: { type: "string", value: "SECONDS" },
  connections: { type: "string", value: "N" },
  keep: { type: "boolean" },
} as const;

runPerf(COMMAND, "load", async (open) => {
  const { values } = parseCommandLine(process.argv.slice(2), COMMAND, OPTIONS);
  const duration = wholeNumber("duration", values.duration, 60, 1, 3600);
  const connections = wholeNumber("connections", values.connections, 32, 1, 1024);
  const run = open(values.keep);
  const persistDir = join(run.dir, "state");
  run.step(`state: ${persistDir}${values.keep ? " (kept)" : " (removed afterwards)"}`);
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
  run.step(`load: ${duration} s at ${connections} connections, a weighted mix of every endpoint...`);
  const result = await cannon({ url: server.url, connections, duration, timeout: 10, requests });

  const verdict = report(result, tally, await checkCreates(server.url, key, catalog.customerIds, tally));
  console.log(verdict.lines.join("\n"));
  return verdict.ok ? 0 : 1;
});
