// `npm run load`: a bounded load run against a real `wrangler dev` on 127.0.0.1, not a test.
// Starts its own server with `npm start` on a temp PERSIST_DIR (migrations, demo data) with rate
// limiting off, makes a key with `npm run keys`, runs a weighted mix of every endpoint (creates
// included) with autocannon, prints throughput, latency, errors and answers by status, then checks
// that no create was lost. Exits non-zero on any 5xx, unanswered request or lost create.
//   npm run load -- [--duration SECONDS] [--connections N] [--keep]
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { freePort, run, startServer, tempStateDir, type DevServer } from "../e2e/helpers/server.ts";
import { runLoad } from "./load/cannon.ts";
import { readCatalog } from "./load/catalog.ts";
import { buildMix } from "./load/mix.ts";
import { report } from "./load/report.ts";
import { checkCreates } from "./load/verify.ts";

const STARTUP_TIMEOUT_MS = 600_000;

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "60" },
      connections: { type: "string", default: "32" },
      keep: { type: "boolean", default: false },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!Number.isInteger(duration) || duration < 1 || duration > 3600) throw new Error("--duration must be 1 to 3600 seconds");
  if (!Number.isInteger(connections) || connections < 1 || connections > 1024) throw new Error("--connections must be 1 to 1024");
  return { duration, connections, keep: values.keep };
}

async function makeKey(persistDir: string): Promise<string> {
  const made = await run("npm", ["run", "--silent", "keys", "--", "create", "--mode", "test", "--name", "load run", "--json"], { PERSIST_DIR: persistDir });
  if (made.code !== 0) throw new Error(`npm run keys failed:\n${made.stdout}\n${made.stderr}`);
  const last = made.stdout.trim().split("\n").at(-1) ?? "";
  return (JSON.parse(last) as { secret: string }).secret;
}

async function main(): Promise<number> {
  const { duration, connections, keep } = options();
  const persistDir = tempStateDir("order-lookup-load-");
  let server: DevServer | undefined;
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
    const key = await makeKey(persistDir);
    console.log(`starting npm start on 127.0.0.1:${port} with RATE_LIMIT_PER_MINUTE=0 (migrations and demo data first)...`);
    const started = Date.now();
    server = await startServer("npm", ["start"], { PORT: String(port), PERSIST_DIR: persistDir, RATE_LIMIT_PER_MINUTE: "0" }, STARTUP_TIMEOUT_MS);
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`npm run load failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
