// Starts a real `wrangler dev` (or `npm start`) on its own port and state folder, for the node-side tests.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { devConfigArgs, wranglerEnv } from "../../scripts/lib/wrangler-env.ts";

export { freePort };

export interface DevServer {
  url: string;
  port: number;
  persistDir: string;
  /** Everything the server printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

export function tempStateDir(prefix = "olk-e2e-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs a command to completion in the project root. */
export async function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
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
  const child: ChildProcess = spawn(command, args, {
    // The environment `npm start` gives wrangler, also for the tests that start `wrangler dev` directly.
    env: { ...wranglerEnv({ ...process.env, ...env }), CI: "true" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${env.PORT}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(`${url}/api/area`);
      return { url, port: Number(env.PORT), persistDir: env.PERSIST_DIR, output: () => output, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await stop();
  throw new Error(`server did not answer within ${timeoutMs} ms:\n${output}`);
}

/** Starts `wrangler dev` directly on a migrated, empty state folder (no seeding). */
export async function startWranglerDev(
  vars: Record<string, string> = {},
): Promise<DevServer & { cleanup: () => Promise<void> }> {
  const persistDir = tempStateDir();
  const port = await freePort();
  const migrate = await run(
    "npx",
    ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir],
    { CI: "true" },
  );
  if (migrate.code !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const server = await startServer(
    "npx",
    [
      "wrangler",
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
  return {
    ...server,
    cleanup: async () => {
      await server.stop();
      rmSync(persistDir, { recursive: true, force: true });
    },
  };
}
