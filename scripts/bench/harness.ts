// What every suite of `npm run bench` shares (docs/performance.md, "The benchmark"): the run's folder, servers
// started as an operator starts them, keys made with `npm run keys`, datasets imported with `npm run db:import`,
// and load runs by autocannon against floors, in rounds.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CommandLine, failureLine } from "../lib/cli.ts";
import { type CommandResult, freePort, procStats, run, spawnServer } from "../lib/processes.ts";
import { measure, type Figures, type LoadOptions, type RequestParts } from "./cannon.ts";

export interface Server {
  url: string;
  /** CPU seconds so far of every process of the server (workerd, wrangler, npm), or null off Linux. */
  cpuSeconds: () => number | null;
  /** Rebuilds by wrangler because a source file changed: each one disturbs a run. */
  reloads: () => number;
  stop: () => Promise<void>;
}

export type Runner = (
  label: string,
  server: Server,
  path: string,
  headers?: Record<string, string>,
  request?: () => RequestParts,
) => Promise<Figures>;

export class PerfRun {
  readonly dir = mkdtempSync(join(tmpdir(), "order-lookup-bench-"));
  private readonly servers = new Set<Server>();

  constructor(private readonly keep = false) {}

  step(message: string): void {
    console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
  }

  /** Starts a command that listens on the port it is given and waits until GET readyPath answers. */
  async start(
    name: string,
    command: string,
    args: (port: number) => string[],
    env: (port: number) => NodeJS.ProcessEnv,
    readyPath = "/",
  ): Promise<Server> {
    const port = await freePort();
    const logFile = join(this.dir, `${name}.log`);
    const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
    const spawned = await spawnServer(command, args(port), {
      port,
      env: env(port),
      logFile,
      readyPath,
      readyTimeoutMs: 600_000,
    }).catch(() => {
      throw new Error(`${name} did not start (see ${logFile}):\n${log().split("\n").slice(-30).join("\n")}`);
    });
    const server: Server = {
      url: spawned.url,
      cpuSeconds: () => groupCpuSeconds(spawned.pid),
      reloads: () => (log().match(/Reloading local server/g) ?? []).length,
      stop: async () => {
        this.servers.delete(server);
        await spawned.stop();
      },
    };
    this.servers.add(server);
    return server;
  }

  /** `npm start` or `npm run dev` on a state folder, rate limiting off; /api/area waits for the worker itself. */
  serveApi(name: string, script: "start" | "dev", persistDir: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
    const args = script === "start" ? ["start"] : ["run", "dev"];
    const vars = { PERSIST_DIR: persistDir, RATE_LIMIT_PER_MINUTE: "0", USAGE_FLUSH_SECONDS: "", ...env };
    return this.start(
      name,
      "npm",
      () => args,
      (port) => ({ PORT: String(port), ...vars }),
      "/api/area",
    );
  }

  /** Loads one endpoint of a server for the run's time and prints its line. */
  runner(load: LoadOptions): Runner {
    return async (label, server, path, headers, request) => {
      this.step(`${label}: ${load.seconds} s ...`);
      const url = `${server.url}${path}`;
      const f = await measure({ label, url, headers, request, cpuSeconds: server.cpuSeconds }, load);
      const cpu = f.cpuMs === null ? "" : `, ${f.cpuMs.toFixed(2)} CPU ms/request`;
      const failed = f.failures ? `, ${f.failures} FAILED` : "";
      this.step(`${label}: ${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms${cpu}${failed}`);
      return f;
    };
  }

  /** Stops every server; removes the folder unless the run failed or --keep asked to keep it. */
  async finish(ok: boolean): Promise<void> {
    await Promise.all([...this.servers].map((s) => s.stop()));
    if (ok && !this.keep) rmSync(this.dir, { recursive: true, force: true });
    else console.error(`The run's states and the servers' logs are in ${this.dir}.`);
  }
}

/** Runs the benchmark: an interrupt (SIGINT, SIGTERM) stops the servers first; a failure is one line. */
export function runPerf(command: CommandLine, keep: boolean, main: (perf: PerfRun) => Promise<number>): void {
  const perf = new PerfRun(keep);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void perf.finish(false).finally(() => process.exit(130)));
  main(perf).then(
    async (code) => {
      await perf.finish(code === 0);
      process.exit(code);
    },
    async (err: unknown) => {
      console.error(failureLine(err, command));
      await perf.finish(false);
      process.exit(1);
    },
  );
}

export interface Round {
  floorRun: Figures;
  figures: Figures;
}

/**
 * Rounds of the floor right before the endpoint: the machine's speed drifts by 10-20% from one run to
 * the next, and the median round's ratio is steadier than any one.
 */
export async function ratioRounds(rounds: number, floor: () => Promise<Figures>, endpoint: () => Promise<Figures>) {
  const done: Round[] = [];
  for (let i = 0; i < rounds; i++) done.push({ floorRun: await floor(), figures: await endpoint() });
  const ratioOf = (r: Round) => r.figures.rps / r.floorRun.rps;
  const median = [...done].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor(done.length / 2)]!;
  return { median, ratios: done.map(ratioOf), rounds: done };
}

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

function check(what: string, result: CommandResult): CommandResult {
  if (result.code !== 0)
    throw new Error(`${what} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.trim());
  return result;
}

/** A test-mode key made with `npm run keys -- create --json` on a state folder: its secret. */
export async function makeKey(persistDir: string, name: string): Promise<string> {
  const args = ["run", "--silent", "keys", "--", "create", "--mode", "test", "--name", name, "--json"];
  const result = check("npm run keys -- create", await run("npm", args, { PERSIST_DIR: persistDir }));
  return (JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { secret: string }).secret;
}

/** Valid mobile numbers that no customer has (`taken`, normalized) nor any earlier call gave, from a random start. */
export function freshMobiles(taken: ReadonlySet<string>): () => string {
  let next = 6_000_000_000 + Math.floor(Math.random() * 3_000_000_000);
  return () => {
    while (taken.has(String(next))) next++;
    return String(next++);
  };
}

/** CPU time (user + system) of a process group from /proc: steadier than throughput on a shared machine. */
function groupCpuSeconds(groupId: number): number | null {
  try {
    const ticks = procStats()
      .filter(({ fields }) => Number(fields[2]) === groupId)
      .reduce((sum, { fields }) => sum + Number(fields[11]) + Number(fields[12]), 0);
    return ticks / 100; // Linux's USER_HZ
  } catch {
    return null;
  }
}

/** A hash of the dataset generator's code: a cached file made by other code is not reused. */
function generatorVersion(): string {
  const hash = createHash("sha256");
  const files = readdirSync("scripts/dataset")
    .sort()
    .map((f) => join("scripts/dataset", f));
  for (const file of ["scripts/make-dataset.ts", ...files]) hash.update(file).update(readFileSync(file));
  return hash.digest("hex").slice(0, 12);
}

/** A generated dataset, kept in cacheDir between runs (it takes a while to make). */
export async function largeDataset(cacheDir: string, customers: number, orders: number) {
  const file = join(cacheDir, `dataset-c${customers}-o${orders}-${generatorVersion()}.jsonl`);
  if (existsSync(file)) return { file, cached: true };
  const partial = `${file}.partial.jsonl`;
  const args = ["--customers", String(customers), "--orders", String(orders), "--out", partial];
  check("npm run demo:generate", await run("npm", ["run", "demo:generate", "--", ...args]));
  // Renamed only when complete, so that an interrupted run never leaves a truncated file to reuse.
  renameSync(partial, file);
  return { file, cached: false };
}

/** `npm run db:import -- FILE` into a state folder: the importer's summary line. */
export async function importInto(persistDir: string, file: string): Promise<{ summary: string; seconds: number }> {
  const result = check(
    `npm run db:import -- ${file}`,
    await run("npm", ["run", "db:import", "--", file], { PERSIST_DIR: persistDir }),
  );
  const summary = result.stdout.split("\n").find((l) => l.startsWith("Imported")) ?? result.stdout.trim();
  return { summary, seconds: result.seconds };
}

/** Rows of one query on the local D1 of a state folder. */
export async function query<T>(persistDir: string, sql: string): Promise<T[]> {
  const args = ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persistDir, "--json", "--command", sql];
  const result = check("wrangler d1 execute", await run("npx", args));
  return (JSON.parse(result.stdout) as { results: T[] }[])[0]?.results ?? [];
}

export interface Targets {
  /** The normalized phone of the customer with the most orders, and how many. */
  phone: string;
  orders: number;
  /** A pincode that some sales agent serves. */
  pincode: string;
}

export async function findTargets(persistDir: string): Promise<Targets> {
  const [busiest] = await query<{ phone: string; n: number }>(
    persistDir,
    "SELECT c.phone_key AS phone, COUNT(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id " +
      "WHERE c.phone_key IS NOT NULL GROUP BY o.customer_id ORDER BY n DESC, o.customer_id LIMIT 1",
  );
  const [served] = await query<{ code: string }>(
    persistDir,
    "SELECT p.code AS code FROM postal_codes p JOIN sales_agent_postal_codes s ON s.postal_code_id = p.id ORDER BY p.id LIMIT 1",
  );
  if (!busiest || !served) throw new Error("the imported dataset has no customer with orders or no served pincode");
  return { phone: busiest.phone, orders: busiest.n, pincode: served.code };
}
