// What the suites of `npm run bench` share (docs/performance.md, docs/operations.md): a run's
// temporary folder (the servers' states and logs: removed after a good run, kept after a failed one
// or with --keep), the servers it starts (each on a free port of 127.0.0.1 in a process group of its
// own, its output in a log file, its CPU time read from /proc), keys made with the operator's own
// `npm run keys`, a timestamped line per step, and the one line that a failure ends with.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CommandLine, failureLine, UsageError } from "../lib/cli.ts";
import { freePort, procStats, run, spawnServer } from "../lib/processes.ts";

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

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

export class PerfRun {
  /** The run's folder: states and the servers' logs. */
  readonly dir: string;
  private readonly servers = new Set<Server>();

  constructor(
    private readonly label: string,
    private readonly keep = false,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), `order-lookup-${label}-`));
  }

  step(message: string): void {
    console.log(`[${this.label} ${new Date().toISOString().slice(11, 19)}] ${message}`);
  }

  /** Starts a server whose command listens on the PORT it is given, and waits until it answers. */
  async start(
    name: string,
    command: string,
    args: (port: number) => string[],
    env: (port: number) => NodeJS.ProcessEnv,
    readyPath = "/",
  ): Promise<Server> {
    const port = await freePort();
    const logFile = join(this.dir, `${name}.log`);
    const read = () => {
      try {
        return readFileSync(logFile, "utf8");
      } catch {
        return "";
      }
    };
    let server;
    try {
      server = await spawnServer(command, args(port), {
        port,
        env: env(port),
        logFile,
        readyPath,
        readyTimeoutMs: 600_000,
      });
    } catch {
      throw new Error(`${name} did not start (see ${logFile}):\n${read().split("\n").slice(-30).join("\n")}`);
    }
    const { pid, url } = server;
    const started: Server = {
      name,
      url,
      logFile,
      cpuSeconds: () => groupCpuSeconds(pid),
      reloads: () => (read().match(/Reloading local server/g) ?? []).length,
      stop: async () => {
        this.servers.delete(started);
        await server.stop();
      },
    };
    this.servers.add(started);
    return started;
  }

  /**
   * The API as an operator serves it (`npm start` or `npm run dev`) on a state folder, rate limiting
   * off, usage written as wrangler.toml says unless `env` sets USAGE_FLUSH_SECONDS.
   */
  serveApi(name: string, script: "start" | "dev", persistDir: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
    const args = script === "start" ? ["start"] : ["run", "dev"];
    // Any path answers (a 401 without a key); /api/area also waits for the worker itself.
    return this.start(
      name,
      "npm",
      () => args,
      (port) => ({
        PORT: String(port),
        PERSIST_DIR: persistDir,
        RATE_LIMIT_PER_MINUTE: "0",
        USAGE_FLUSH_SECONDS: "",
        ...env,
      }),
      "/api/area",
    );
  }

  /** Stops every server; removes the folder unless the run failed or --keep asked to keep it. */
  async finish(ok: boolean): Promise<void> {
    await Promise.all([...this.servers].map((s) => s.stop()));
    if (ok && !this.keep) rmSync(this.dir, { recursive: true, force: true });
    else console.error(`The run's states and the servers' logs are in ${this.dir}.`);
  }
}

/**
 * Runs a harness command: its exit status is what `main` returns. A failure is one line (a usage
 * mistake with its pointer to --help), and an interrupt (SIGINT, SIGTERM) stops the servers first.
 */
export function runPerf(
  command: CommandLine,
  label: "bench" | "load",
  main: (open: (keep?: boolean) => PerfRun) => Promise<number>,
): void {
  let perf: PerfRun | undefined;
  const open = (keep?: boolean) => (perf = new PerfRun(label, keep));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void (perf?.finish(false) ?? Promise.resolve()).finally(() => process.exit(130)));
  }
  main(open).then(
    async (code) => {
      await perf?.finish(code === 0);
      process.exit(code);
    },
    async (err: unknown) => {
      console.error(
        err instanceof UsageError
          ? failureLine(err, command)
          : `npm run ${label} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      await perf?.finish(false);
      process.exit(1);
    },
  );
}

/** A test-mode key made with `npm run keys -- create --json` on a state folder: its secret. */
export async function makeKey(persistDir: string, name: string): Promise<string> {
  const result = await run(
    "npm",
    ["run", "--silent", "keys", "--", "create", "--mode", "test", "--name", name, "--json"],
    { PERSIST_DIR: persistDir },
  );
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.code !== 0 || !last.startsWith("{"))
    throw new Error(`npm run keys -- create failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.trim());
  return (JSON.parse(last) as { secret: string }).secret;
}

/** Valid mobile numbers that no customer has (`taken`, normalized) nor any earlier call gave, from a random start. */
export function freshMobiles(taken: ReadonlySet<string>): () => string {
  let next = 6_000_000_000 + Math.floor(Math.random() * 3_000_000_000);
  return () => {
    while (taken.has(String(next))) next++;
    return String(next++);
  };
}

/**
 * CPU time (user + system) of every live process in a process group, from /proc. What a server
 * spends per request is steadier than its throughput on a machine that others are using too.
 */
function groupCpuSeconds(groupId: number): number | null {
  try {
    const ticks = procStats()
      .filter(({ fields }) => Number(fields[2]) === groupId) // pgrp
      .reduce((sum, { fields }) => sum + Number(fields[11]) + Number(fields[12]), 0); // utime, stime
    return ticks / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
