// The import of a large file, behind `npm run bench -- --big-import ORDERS` (minutes and gigabytes):
// its time, and the peak memory of the importing processes sampled from /proc (the importer's Node
// and the workerd that its local platform runs), so that "streamed, memory bounded" is a figure.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { descendants } from "../lib/processes.ts";

export interface ImportFigures {
  seconds: number;
  /** The most that the importer's whole process tree held at once, and the largest single process. */
  peakTreeMib: number;
  peakProcessMib: number;
  /** The importer's summary line (the last line of its standard output). */
  summary: string;
}

function rssKib(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0; // ended between the listing and the read
  }
}

/** `npm run db:import -- FILE` into `persistDir`, sampling its tree's memory every 250 ms. */
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
  const timer = setInterval(() => {
    if (child.pid === undefined) return;
    const each = [child.pid, ...descendants(child.pid)].map(rssKib);
    peakTree = Math.max(
      peakTree,
      each.reduce((a, b) => a + b, 0),
    );
    peakProcess = Math.max(peakProcess, ...each);
  }, 250);
  const code = await new Promise<number>((resolve) => child.on("close", (status) => resolve(status ?? 1)));
  clearInterval(timer);
  const summary = stdout.trim().split("\n").at(-1) ?? "";
  if (code !== 0) throw new Error(`npm run db:import -- ${file} exited ${code}: ${summary}`);
  return {
    seconds: (performance.now() - started) / 1000,
    peakTreeMib: peakTree / 1024,
    peakProcessMib: peakProcess / 1024,
    summary,
  };
}
