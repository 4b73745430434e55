// Starts a real `wrangler dev` (or `npm start`) on its own port and state folder, for the node-side
// tests. The process helpers themselves are scripts/lib/processes.ts, shared with the benchmark and
// the load run; every server runs in its own process group and ends with the test run.
import { rmSync } from "node:fs";
import { freePort, type Server, spawnServer } from "../../scripts/lib/processes.ts";
import { devConfigArgs, wranglerEnv } from "../../scripts/lib/wrangler-env.ts";
import { executeOnStoppedState, migratedStateDir } from "./state.ts";
import { WRANGLER_BIN } from "./wrangler.ts";

/**
 * Vars of every test server unless a test sets its own: a key record is trusted for 1 s instead of
 * 10 (docs/specification.md section 6, "Key cache"), so a revocation reaches the server in a second.
 */
const TEST_VARS = { KEY_CACHE_SECONDS: "1" };

export interface DevServer extends Server {
  persistDir: string;
}

/**
 * Spawns a long-running command (e.g. `npm start`) and waits until http://127.0.0.1:PORT answers.
 * `env` must carry PORT and PERSIST_DIR for the project's scripts.
 */
export async function startServer(
  command: string,
  args: string[],
  env: Record<string, string> & { PORT: string; PERSIST_DIR: string },
  timeoutMs = 150_000,
): Promise<DevServer> {
  const server = await spawnServer(command, args, {
    port: Number(env.PORT),
    // The environment `npm start` gives wrangler, also for the tests that start `wrangler dev` directly.
    env: wranglerEnv({ ...process.env, ...env }),
    readyPath: "/api/area",
    readyTimeoutMs: timeoutMs,
  });
  return { ...server, persistDir: env.PERSIST_DIR };
}

/** Starts `wrangler dev` directly on an existing state folder, with TEST_VARS and `vars` (which win). */
export async function serveState(persistDir: string, vars: Record<string, string> = {}): Promise<DevServer> {
  const port = await freePort();
  const varArgs = Object.entries({ ...TEST_VARS, ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  return startServer(
    process.execPath,
    [
      WRANGLER_BIN,
      "dev",
      ...devConfigArgs(),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      persistDir,
      "--show-interactive-dev-session=false",
      ...varArgs,
    ],
    { PORT: String(port), PERSIST_DIR: persistDir },
  );
}

/**
 * Starts `wrangler dev` directly on a fresh migrated state folder: empty (no seeding) unless `sql`
 * is given, which runs on the local D1 before the server starts.
 */
export async function startWranglerDev(
  vars: Record<string, string> = {},
  sql?: string,
): Promise<DevServer & { cleanup: () => Promise<void> }> {
  const persistDir = migratedStateDir();
  if (sql !== undefined) await executeOnStoppedState(persistDir, sql);
  const server = await serveState(persistDir, vars);
  return {
    ...server,
    cleanup: async () => {
      await server.stop();
      rmSync(persistDir, { recursive: true, force: true });
    },
  };
}
