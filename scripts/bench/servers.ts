// The floors worker of `npm run bench` (scripts/bench/floors.ts), served by a second `wrangler dev`
// beside the API's, in the same environment as `npm run dev` gives wrangler, so that the floors pay
// what the API pays.
import { cpSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readConfig } from "../lib/config.ts";
import { WRANGLER_BIN, wranglerEnv } from "../lib/wrangler-env.ts";
import type { PerfRun, Server } from "./harness.ts";

/**
 * The floors worker with a config of its own generated into the run's folder, on a copy of
 * dataState (a PERSIST_DIR that the API serves), so that its page floors read the API's data
 * without two servers sharing one database file.
 */
export function startFloors(run: PerfRun, dataState: string): Promise<Server> {
  const api = readConfig();
  const database = api.d1_databases?.[0];
  if (!database?.database_id) throw new Error("wrangler.toml has no D1 database");
  const floorsState = join(run.dir, "floors-state");
  cpSync(dataState, floorsState, { recursive: true });
  const config = {
    name: "order-lookup-bench-floors",
    main: resolve("scripts/bench/floors.ts"),
    // The API's runtime settings, so that the floors run on the same workerd features.
    compatibility_date: api.compatibility_date,
    compatibility_flags: api.compatibility_flags,
    // The API's database id: local D1 finds its data under PERSIST_DIR by that id.
    d1_databases: [{ binding: "DB", database_name: "bench-floors", database_id: database.database_id }],
  };
  const configPath = join(run.dir, "floors.wrangler.json");
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const args = (port: number) => [
    WRANGLER_BIN,
    "dev",
    "--config",
    configPath,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    floorsState,
    "--show-interactive-dev-session=false",
  ];
  return run.start("floors", process.execPath, args, () => wranglerEnv());
}
