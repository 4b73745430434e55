// `npm run load`: a bounded load run against a real `wrangler dev` on 127.0.0.1, not a test.
// Starts its own server with `npm start` on a temp PERSIST_DIR (migrations, demo data) with rate
// limiting off, makes a key with `npm run keys`, runs a weighted mix of every endpoint (creates
// included) with autocannon, prints throughput, latency, errors and answers by status, then checks
// that no create was lost. Exits non-zero on any 5xx, unanswered request or lost create.
//   npm run load -- [--duration SECONDS] [--connections N] [--keep]
import { rmSync } from "node:fs";
import { type CommandLine, failureLine, parseCommandLine, UsageError } from "./lib/cli.ts";
import { freePort, makeKey, type Server, spawnServer, tempStateDir } from "./lib/processes.ts";
import { runLoad } from "./load/cannon.ts";
import { readCatalog } from "./load/catalog.ts";
import { buildMix } from "./load/mix.ts";
import { report } from "./load/report.ts";
import { checkCreates } from "./load/verify.ts";

const STARTUP_TIMEOUT_MS = 600_000;

const COMMAND: CommandLine = {
  invocation: "npm run load --",
  usage: `Usage: npm run load [-- --duration SECONDS] [--connections N] [--keep]
  A load run (not a test) against npm start on a temporary PERSIST_DIR and a free port.
  --duration SECONDS   1 to 3600 (default 60)
  --connections N      1 to 1024 (default 32)
  --keep               keep the temporary state folder afterwards`,
};

const OPTIONS = {
  duration: { type: "string", value: "SECONDS" },
  connections: { type: "string", value: "N" },
  keep: { type: "boolean" },
} as const;

function options(argv: string[]) {
  const { values } = parseCommandLine(argv, COMMAND, OPTIONS);
  const duration = Number(values.duration ?? "60");
  const connections = Number(values.connections ?? "32");
  if (!/^\d+$/.test(values.duration ?? "60") || duration < 1 || duration > 3600) throw new UsageError("--duration must be 1 to 3600 seconds");
  if (!/^\d+$/.test(values.connections ?? "32") || connections < 1 || connections > 1024) throw new UsageError("--connections must be 1 to 1024");
  return { duration, connections, keep: values.keep ?? false };
}

async function main(argv: string[]): Promise<number> {
  const { duration, connections, keep } = options(argv);
  const persistDir = tempStateDir("order-lookup-load-");
  let server: Server | undefined;
  const cleanup = async () => {
    await server?.stop();
    if (!keep) rmSync(persistDir, { recursive: true, force: true });
  };
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    const port = await freePort();
    console.log(`state: ${persistDir}${keep ? " (kept)" : " (removed afterwards)"}`);
    const key = await makeKey(persistDir, "load run");
    console.log(`starting npm start on 127.0.0.1:${port} with RATE_LIMIT_PER_MINUTE=0 (migrations and demo data first)...`);
    const started = Date.now();
    server = await spawnServer("npm", ["start"], {
      port,
      env: { PORT: String(port), PERSIST_DIR: persistDir, RATE_LIMIT_PER_MINUTE: "0" },
      readyPath: "/api/area",
      readyTimeoutMs: STARTUP_TIMEOUT_MS,
    });
    console.log(`serving after ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const catalog = await readCatalog(server.url, key);
    console.log(
      `dataset: ${catalog.customerIds.size} customers, ${catalog.pincodes.length} pincodes, ${catalog.areaIds.length} areas, ${catalog.salesagentIds.length} sales agents`,
    );
    const { requests, tally } = buildMix(catalog, key, String(Date.now()));
    console.log(`load: ${duration} s at ${connections} connections, a weighted mix of every endpoint...`);
    const result = await runLoad({ url: server.url, connections, duration, timeout: 10, requests });

    const check = await checkCreates(server.url, key, catalog.customerIds, tally);
    const verdict = report(result, tally, check);
    console.log(verdict.lines.join("\n"));
    return verdict.ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? failureLine(error, COMMAND) : `npm run load failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
