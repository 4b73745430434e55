// What every suite of `npm run bench` shares (docs/performance.md, "The benchmark"): the run's folder, servers
// started as an operator starts them and the floors beside them, keys made with `npm run keys`, datasets imported
// with `npm run db:import`, load runs by autocannon, and the report's number and table formats.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type autocannon from "autocannon";
import { readConfig } from "../lib/config.ts";
import { freePort, procStats, run, spawnServer } from "../lib/processes.ts";
import { WRANGLER_BIN, wranglerEnv } from "../lib/wrangler-env.ts";

export const cannon = createRequire(import.meta.url)("autocannon") as (
  options: autocannon.Options,
) => Promise<autocannon.Result>;

export interface Server {
  url: string;
  /** CPU seconds so far of every process of the server (workerd, wrangler, npm), or null off Linux. */
  cpuSeconds: () => number | null;
  /** Rebuilds by wrangler because a source file changed: each one disturbs a run. */
  reloads: () => number;
  stop: () => Promise<void>;
}
export type Figures = Awaited<ReturnType<ReturnType<PerfRun["runner"]>>>;
export type LoadOptions = { connections: number; seconds: number; warmupSeconds: number };

export class PerfRun {
  readonly dir = mkdtempSync(join(tmpdir(), "order-lookup-bench-"));
  private readonly servers = new Set<Server>();

  constructor(private readonly keep = false) {}

  step(message: string): void {
    console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
  }

  /** Starts a command that listens on the port it is given; /api/area answering (even a 404) waits for the worker. */
  async start(name: string, command: string, args: (port: number) => string[], env: NodeJS.ProcessEnv) {
    const port = await freePort();
    const logFile = join(this.dir, `${name}.log`);
    const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
    const spawned = await spawnServer(command, args(port), {
      port,
      env: { PORT: String(port), ...env },
      logFile,
      readyPath: "/api/area",
      readyTimeoutMs: 600_000,
    }).catch(() => {
      throw new Error(`${name} did not start (see ${logFile}):\n${log().split("\n").slice(-30).join("\n")}`);
    });
    const server: Server = {
      url: spawned.url,
      // CPU time (user + system) of the server's process group from /proc, in Linux's USER_HZ (100 a second):
      // steadier than throughput on a shared machine.
      cpuSeconds: () => {
        try {
          const group = procStats().filter(({ fields }) => Number(fields[2]) === spawned.pid);
          return group.reduce((sum, { fields }) => sum + Number(fields[11]) + Number(fields[12]), 0) / 100;
        } catch {
          return null;
        }
      },
      reloads: () => (log().match(/Reloading local server/g) ?? []).length,
      stop: async () => {
        this.servers.delete(server);
        await spawned.stop();
      },
    };
    this.servers.add(server);
    return server;
  }

  /** `npm start` or `npm run dev` on a state folder, rate limiting off. */
  serveApi(name: string, script: "start" | "dev", persistDir: string) {
    const args = script === "start" ? ["start"] : ["run", "dev"];
    const env = { PERSIST_DIR: persistDir, RATE_LIMIT_PER_MINUTE: "0", USAGE_FLUSH_SECONDS: "" };
    return this.start(name, "npm", () => args, env);
  }

  /**
   * The floors worker (scripts/bench/floors.ts) by a second `wrangler dev`, in the environment that `npm run dev`
   * gives wrangler and on the API's runtime settings, so that the floors pay what the API pays; on a copy of
   * dataState (local D1 finds the data under its persist folder by the API's database id).
   */
  serveFloors(dataState: string) {
    const api = readConfig();
    const database = api.d1_databases?.[0];
    if (!database?.database_id) throw new Error("wrangler.toml has no D1 database");
    const floorsState = join(this.dir, "floors-state");
    cpSync(dataState, floorsState, { recursive: true });
    const config = {
      name: "order-lookup-bench-floors",
      main: resolve("scripts/bench/floors.ts"),
      compatibility_date: api.compatibility_date,
      compatibility_flags: api.compatibility_flags,
      d1_databases: [{ binding: "DB", database_name: "bench-floors", database_id: database.database_id }],
    };
    const configPath = join(this.dir, "floors.wrangler.json");
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    const args = (port: number) => [
      ...[WRANGLER_BIN, "dev", "--config", configPath, "--ip", "127.0.0.1", "--port", String(port)],
      ...["--persist-to", floorsState, "--show-interactive-dev-session=false"],
    ];
    return this.start("floors", process.execPath, args, wranglerEnv());
  }

  /**
   * Loads one endpoint of a server and prints its line: a warm-up (so that isolate caches, JIT and SQLite's page
   * cache are what a busy service has), one probe whose Server-Timing says what work each request does, then
   * autocannon at a fixed number of connections for a fixed time.
   */
  runner(load: LoadOptions) {
    return async (label: string, server: Server, path: string, headers?: Record<string, string>) => {
      this.step(`${label}: ${load.seconds} s ...`);
      const url = `${server.url}${path}`;
      const cannonRun = (duration: number) => cannon({ url, headers, connections: load.connections, duration });
      await cannonRun(load.warmupSeconds);
      const probe = await fetch(url, { headers });
      await probe.arrayBuffer();
      const cpuBefore = server.cpuSeconds();
      const result = await cannonRun(load.seconds);
      const cpuAfter = server.cpuSeconds();
      const total = result.requests.total;
      const timing = probe.headers.get("Server-Timing");
      const f = {
        label,
        rps: total / result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        /** Answers other than 2xx, errors and timeouts: any makes the figures suspect. */
        failures: result.non2xx + result.errors + result.timeouts,
        /** The serving processes' CPU time per request, in ms (null when unknown). */
        cpuMs: cpuBefore === null || cpuAfter === null || total === 0 ? null : ((cpuAfter - cpuBefore) * 1000) / total,
        status: probe.status,
        /** "1 D1 (57 rows) + 0 KV" from the probe's Server-Timing ("" for the floors, which send none). */
        work: timing
          ? `${/d1;dur=[\d.]+;desc="(\d+) round trips"/.exec(timing)?.[1] ?? "?"} D1 (${rowsRead(timing)} rows) + ` +
            `${/kv;dur=[\d.]+;desc="(\d+) reads"/.exec(timing)?.[1] ?? "?"} KV`
          : "",
      };
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

export const mean = (list: number[]) => list.reduce((sum, n) => sum + n, 0) / list.length;
/** The API's D1 file in a PERSIST_DIR: local D1 keeps a database as one SQLite file named by a hash, beside its metadata. */
export function d1FileOf(persistDir: string): string {
  const dir = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.length}`);
  return join(dir, files[0]!);
}

export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
/** The median, with every round's in brackets when there are several. */
export const rounds = (xs: number[]) =>
  `${median(xs).toFixed(2)}${xs.length > 1 ? ` (${xs.map((x) => x.toFixed(2)).join(", ")})` : ""}`;
/** A figure for a report: thousands separated, `digits` decimals. */
export const num = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** A Markdown table's header row, written as it reads ("| a | b |"), and the row under it. */
export const tableHead = (row: string) => [row, `|${"---|".repeat(row.split(" | ").length)}`];

/** The D1 rows that an answer read, from its Server-Timing d1rows entry; NaN without one. */
export const rowsRead = (serverTiming: string | null) =>
  Number(/d1rows;desc="(\d+) rows read"/.exec(serverTiming ?? "")?.[1] ?? NaN);

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A GET with a key: its JSON body, rows read, bytes and ETag; an error unless it answered one of `ok`. */
export async function getJson(url: string, key: string, ok = [200]) {
  const res = await fetch(url, { headers: auth(key) });
  const text = await res.text();
  if (!ok.includes(res.status)) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const rows = rowsRead(res.headers.get("Server-Timing"));
  return { body: JSON.parse(text), rows, bytes: Buffer.byteLength(text), etag: res.headers.get("ETag") };
}

/** Customers made one after the other by POST /api/customers/create with a key. */
export async function createCustomers(baseUrl: string, key: string, bodies: object[]) {
  for (const body of bodies) {
    const res = await fetch(`${baseUrl}/api/customers/create`, {
      method: "POST",
      headers: { ...auth(key), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST /api/customers/create answered ${res.status}: ${await res.text()}`);
  }
}

/** A command run to its end, its output kept; an error with that output unless it exits 0. */
async function runOk(command: string, args: string[], env: Record<string, string> = {}) {
  const result = await run(command, args, env);
  if (result.code !== 0)
    throw new Error(
      `${[command, ...args].join(" ")} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.trim(),
    );
  return result;
}

/** A test-mode key made with `npm run keys -- create --json` on a state folder: its secret. */
export async function makeKey(persistDir: string, name: string): Promise<string> {
  const args = ["run", "--silent", "keys", "--", "create", "--mode", "test", "--name", name, "--json"];
  const result = await runOk("npm", args, { PERSIST_DIR: persistDir });
  return (JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { secret: string }).secret;
}

/** A generated dataset, kept in cacheDir between runs (it takes a while to make) under a hash of the generator's code. */
export async function largeDataset(cacheDir: string, customers: number, orders: number) {
  const hash = createHash("sha256");
  const generator = readdirSync("scripts/dataset").sort();
  for (const file of ["scripts/make-dataset.ts", ...generator.map((f) => join("scripts/dataset", f))])
    hash.update(file).update(readFileSync(file));
  const file = join(cacheDir, `dataset-c${customers}-o${orders}-${hash.digest("hex").slice(0, 12)}.jsonl`);
  if (existsSync(file)) return { file, cached: true };
  const partial = `${file}.partial.jsonl`;
  const args = ["--customers", String(customers), "--orders", String(orders), "--out", partial];
  await runOk("npm", ["run", "demo:generate", "--", ...args]);
  // Renamed only when complete, so that an interrupted run never leaves a truncated file to reuse.
  renameSync(partial, file);
  return { file, cached: false };
}

/** `npm run db:import -- FILE` into a state folder: the importer's summary line. */
export async function importInto(persistDir: string, file: string) {
  const result = await runOk("npm", ["run", "db:import", "--", file], { PERSIST_DIR: persistDir });
  const summary = result.stdout.split("\n").find((l) => l.startsWith("Imported")) ?? result.stdout.trim();
  return { summary, seconds: result.seconds };
}

/** Rows of one query on the local D1 of a state folder. */
export async function query<T>(persistDir: string, sql: string): Promise<T[]> {
  const args = ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persistDir, "--json", "--command", sql];
  const result = await runOk("npx", args);
  return (JSON.parse(result.stdout) as { results: T[] }[])[0]?.results ?? [];
}

/** The normalized phone of the customer with the most orders and how many, and a pincode some sales agent serves. */
export async function findTargets(persistDir: string) {
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
