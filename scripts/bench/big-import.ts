// The import of a large file, behind `npm run bench -- import ORDERS` and `scale`: its time, the peak memory of the
// importing processes sampled from /proc (npm, the importer's Node and its workerd), so that "streamed, memory
// bounded" is a figure, and what the database then takes on disk.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { descendants } from "../lib/processes.ts";
import type { PerfRun } from "./harness.ts";
import { largeDataset } from "./harness.ts";

export interface ImportFigures {
  seconds: number;
  /** The most that the importer's whole process tree held at once, and the largest single process. */
  peakTreeMib: number;
  peakProcessMib: number;
  /** The tree's processes at that peak in MiB, e.g. "node 611 (anonymous 560), workerd 319 (anonymous 120), ...". */
  atPeak: string;
  /** The importer's summary line (the last line of its standard output). */
  summary: string;
}

const SAMPLE_EVERY_MS = 200;

/** A process's resident memory in KiB (all, and its anonymous part: not pages of mapped files) and its name. */
function resident(pid: number): { name: string; kib: number; anonKib: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? String(pid), kib: field("VmRSS"), anonKib: field("RssAnon") };
  } catch {
    return { name: String(pid), kib: 0, anonKib: 0 }; // ended between the listing and the read
  }
}

/** `npm run db:import -- FILE` into `persistDir`, summing its whole tree's memory every 200 ms. */
export async function measureImport(file: string, persistDir: string): Promise<ImportFigures> {
  const started = performance.now();
  // Standard error passes through: the importer's progress lines show while it works.
  const child = spawn("npm", ["run", "db:import", "--", file], {
    env: { ...process.env, PERSIST_DIR: persistDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  let peakTree = 0;
  let peakProcess = 0;
  let atPeak = "";
  const timer = setInterval(() => {
    if (child.pid === undefined) return;
    const each = [child.pid, ...descendants(child.pid)].map(resident).filter((p) => p.kib > 0);
    const tree = each.reduce((sum, p) => sum + p.kib, 0);
    if (tree > peakTree) {
      peakTree = tree;
      atPeak = [...each]
        .sort((a, b) => b.kib - a.kib)
        .map((p) => `${p.name} ${Math.round(p.kib / 1024)} (anonymous ${Math.round(p.anonKib / 1024)})`)
        .join(", ");
    }
    peakProcess = Math.max(peakProcess, ...each.map((p) => p.kib));
  }, SAMPLE_EVERY_MS);
  const code = await new Promise<number>((resolve) => child.on("close", (status) => resolve(status ?? 1)));
  clearInterval(timer);
  const summary = stdout.trim().split("\n").at(-1) ?? "";
  if (code !== 0) throw new Error(`npm run db:import -- ${file} exited ${code}: ${summary}`);
  return {
    seconds: (performance.now() - started) / 1000,
    peakTreeMib: peakTree / 1024,
    peakProcessMib: peakProcess / 1024,
    atPeak,
    summary,
  };
}

// The SQLite file of a state's D1 database, checkpointed first (a WAL left by the importer's workerd would otherwise
// be counted apart), with its largest tables and indexes (SQLite's dbstat). Only while no server has it open.
export interface DatabaseSize {
  /** The file's size, and the pages in use (the file less its free pages). */
  fileBytes: number;
  usedBytes: number;
  /** The largest tables and indexes, bytes each, largest first. */
  largest: { name: string; bytes: number }[];
}

/** The API's D1 file in a PERSIST_DIR (local D1 keeps each database as one SQLite file named by a hash). */
function databaseFile(persistDir: string): string {
  const dir = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.length}`);
  return join(dir, files[0]!);
}

export function databaseSize(persistDir: string): DatabaseSize {
  const file = databaseFile(persistDir);
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const one = (sql: string) => Object.values(db.prepare(sql).get() ?? {})[0] as number;
    const pageSize = one("PRAGMA page_size");
    const used = (one("PRAGMA page_count") - one("PRAGMA freelist_count")) * pageSize;
    const largest = db
      .prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8")
      .all() as { name: string; bytes: number }[];
    return { fileBytes: statSync(file).size, usedBytes: used, largest };
  } finally {
    db.close();
  }
}

/** `npm run bench -- import ORDERS`: generate (or reuse) that file, import it into an empty state, give the figures. */
export async function bigImport(run: PerfRun, orders: number, cacheDir: string): Promise<string[]> {
  const customers = Math.max(1, Math.floor(orders / 10));
  run.step(`dataset: ${customers} customers, ${orders} orders`);
  const dataset = await largeDataset(cacheDir, customers, orders);
  run.step(`${dataset.cached ? "reusing" : "generated"} ${dataset.file}`);
  const figures = await measureImport(dataset.file, join(run.dir, "state"));
  return [
    `- ${figures.summary}`,
    `- Import of ${orders} orders: ${figures.seconds.toFixed(1)} s; peak memory ${figures.peakTreeMib.toFixed(0)} MiB ` +
      `for the importer's processes together, ${figures.peakProcessMib.toFixed(0)} MiB the largest one (at the peak: ${figures.atPeak})`,
  ];
}
