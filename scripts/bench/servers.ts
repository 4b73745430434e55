// The servers of `npm run bench`: the API through the operator's own `npm run dev`, and the floors
// worker through a second `wrangler dev` on another port, at the same time. Loopback only; each
// one's output goes to a file (a pipe nobody reads would stall it), and each is stopped by its own
// process group (scripts/lib/processes.ts).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { readConfig } from "../lib/config.ts";
import { freePort, procStats, spawnServer } from "../lib/processes.ts";
import { wranglerEnv } from "../lib/wrangler-env.ts";

export interface Server {
  name: string;
  url: string;
  logFile: string;
  /** CPU seconds used so far by every process of the server (workerd, wrangler, npm), or null off Linux. */
  cpuSeconds: () => number | null;
  /** How often wrangler rebuilt the worker because a source file changed (each one disturbs a run). */
  reloads: () => number;
  stop: () => Promise<void>;
}

const READY_TIMEOUT_MS = 180_000;

/**
 * The API on a state folder, as an operator serves it: `npm run dev`, rate limiting off. The usage
 * flush interval is wrangler.toml's unless `usageFlush` is given ("off", or seconds: "0" writes
 * after every request), which `npm run dev` passes on as `--var USAGE_FLUSH_SECONDS:...`.
 */
export async function startApi(name: string, persistDir: string, workDir: string, usageFlush = ""): Promise<Server> {
  const port = await freePort();
  return start(name, "npm", ["run", "dev"], port, workDir, {
    PORT: String(port),
    PERSIST_DIR: persistDir,
    RATE_LIMIT_PER_MINUTE: "0",
    USAGE_FLUSH_SECONDS: usageFlush,
  });
}

/**
 * The floors worker (scripts/bench/floors.ts), with a config of its own generated into workDir, on a
 * copy of dataState (a PERSIST_DIR that the API serves), so that its page floors read the API's data
 * without two servers sharing one database file.
 */
export async function startFloors(workDir: string, dataState: string): Promise<Server> {
  const rawConfig = readConfig();
  const database = rawConfig.d1_databases?.[0];
  if (!database?.database_id) throw new Error("wrangler.toml has no D1 database");
  const floorsState = join(workDir, "floors-state");
  cpSync(dataState, floorsState, { recursive: true });
  const config = {
    name: "order-lookup-bench-floors",
    main: resolve("scripts/bench/floors.ts"),
    // The API's runtime settings, so that the floors run on the same workerd features.
    compatibility_date: rawConfig.compatibility_date,
    compatibility_flags: rawConfig.compatibility_flags,
    // The API's database id: local D1 finds its data under PERSIST_DIR by that id.
    d1_databases: [{ binding: "DB", database_name: "bench-floors", database_id: database.database_id }],
  };
  const configPath = join(workDir, "floors.wrangler.json");
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const port = await freePort();
  const wrangler = join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");
  const args = [
    wrangler, "dev",
    "--config", configPath,
    "--ip", "127.0.0.1",
    "--port", String(port),
    "--persist-to", floorsState,
    "--show-interactive-dev-session=false",
  ];
  // As `npm run dev` serves the API: same environment, so that the floors pay what the API pays.
  return start("floors", process.execPath, args, port, workDir, wranglerEnv());
}

async function start(
  name: string,
  command: string,
  args: string[],
  port: number,
  workDir: string,
  env: NodeJS.ProcessEnv,
): Promise<Server> {
  mkdirSync(workDir, { recursive: true });
  const logFile = join(workDir, `${name}.log`);
  let server;
  try {
    server = await spawnServer(command, args, { port, env, logFile, readyTimeoutMs: READY_TIMEOUT_MS });
  } catch {
    throw new Error(`${name} did not start (see ${logFile}):\n${tail(logFile)}`);
  }
  const pid = server.pid;
  return {
    name,
    url: server.url,
    logFile,
    stop: server.stop,
    cpuSeconds: () => groupCpuSeconds(pid),
    reloads: () => (readLog(logFile).match(/Reloading local server/g) ?? []).length,
  };
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) of every live process in a process group, from /proc. What a server
 * spends per request is steadier than its throughput on a machine that others are using too.
 */
function groupCpuSeconds(groupId: number): number | null {
  let stats: ReturnType<typeof procStats>;
  try {
    stats = procStats();
  } catch {
    return null;
  }
  let ticks = 0;
  for (const { fields } of stats) {
    if (Number(fields[2]) !== groupId) continue; // pgrp
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks / TICKS_PER_SECOND;
}

function readLog(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function tail(file: string): string {
  return readLog(file).split("\n").slice(-30).join("\n");
}
