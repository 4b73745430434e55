// Processes for the commands, the node-side tests (e2e/) and the benchmark: run one to its end, serve with a long-running
// one, find and end a process tree (from /proc: Linux only), pick a free port.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { execa } from "execa";
import getPort from "get-port";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Ended with this process should it exit first (npm start stopped, a test run over). */
const atExit = new Set<() => void>();
process.on("exit", () => atExit.forEach((end) => end()));

/** Runs a command to its end; "stdout" keeps stdout and shows stderr, "terminal" shows both. */
async function spawnCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  output: "capture" | "stdout" | "terminal",
): Promise<CommandResult> {
  const started = Date.now();
  const child = execa(command, args, {
    env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: output === "capture" ? "ignore" : "inherit",
    stdout: output === "terminal" ? "inherit" : "pipe",
    stderr: output === "capture" ? "pipe" : "inherit",
  });
  const end = () => child.pid && killTree(child.pid, "SIGTERM");
  atExit.add(end);
  const result = await child.finally(() => atExit.delete(end));
  if (result.failed && result.exitCode === undefined && !result.signal) throw result;
  return {
    code: result.exitCode ?? (result.signal && output !== "capture" ? 128 : 1),
    stdout: typeof result.stdout === "string" ? result.stdout : "",
    stderr: typeof result.stderr === "string" ? result.stderr : "",
    seconds: (Date.now() - started) / 1000,
  };
}

/** CI=true (unless env says otherwise) keeps wrangler from asking questions on a terminal. */
export async function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  output: "capture" | "terminal" = "capture",
): Promise<CommandResult> {
  return spawnCommand(command, args, { ...process.env, CI: "true", ...env }, output);
}

export interface ShownOptions {
  env?: Record<string, string>;
  /** Keep stdout (returned) and do not show it; stderr still reaches the terminal. */
  capture?: boolean;
}

/** A command with its output on the terminal as it comes (stdout returned with `capture`), failing unless it exits 0. */
export async function runChecked(command: string, args: string[], options: ShownOptions = {}): Promise<string> {
  const env = { ...process.env, ...options.env };
  const { code, stdout } = await spawnCommand(command, args, env, options.capture ? "stdout" : "terminal");
  if (code !== 0) throw new Error(`\`${[command, ...args].join(" ")}\` exited with status ${code}`);
  return stdout;
}

export function wrangler(args: string[], options: ShownOptions = {}): Promise<string> {
  return runChecked("npx", ["wrangler", ...args], options);
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now. Tried at random below Linux's ephemeral
 * range (32768 up): a port that listen(0) hands out is free only until the next process asks, and
 * servers started side by side (two test files at once, each workerd's own sockets) would get it again.
 */
export function freePort(): Promise<number> {
  const candidates = Array.from({ length: 50 }, () => 20_000 + Math.floor(Math.random() * 12_000));
  return getPort({ host: "127.0.0.1", port: candidates });
}

export function tempStateDir(prefix = "olk-e2e-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The fields of /proc/PID/stat of every process, from the state on (fields[0] is the state,
 * fields[1] the parent, fields[2] the process group, fields[11] and [12] user and system ticks).
 */
export function procStats(): { pid: number; fields: string[] }[] {
  const stats: { pid: number; fields: string[] }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    stats.push({ pid: Number(name), fields: stat.slice(stat.lastIndexOf(")") + 2).split(" ") });
  }
  return stats;
}

/** Every live process (zombies left out): its pid, parent and process group. */
function processTable() {
  return procStats()
    .filter(({ fields }) => fields[0] !== "Z" && fields[0] !== "X")
    .map(({ pid, fields }) => ({ pid, ppid: Number(fields[1]), pgid: Number(fields[2]) }));
}

/** The live descendants of a process (children, their children, ...). */
export function descendants(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const entry of table) {
      if (entry.ppid === parent) {
        found.push(entry.pid);
        queue.push(entry.pid);
      }
    }
  }
  return found;
}

export function stillAlive(pids: readonly number[]): number[] {
  const live = new Set(processTable().map((e) => e.pid));
  return pids.filter((pid) => live.has(pid));
}

export function killAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Signals a process and all its descendants (found first, so none escapes by being reparented). */
export function killTree(pid: number, signal: NodeJS.Signals): void {
  killAll([...descendants(pid), pid], signal);
}

/** SIGTERM to a process group, SIGKILL to what is left of it after 10 s; resolves when it is empty. */
async function endGroup(pgid: number): Promise<void> {
  const emptied = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (processTable().some((e) => e.pgid === pgid) && Date.now() < deadline) await sleep(100);
    return !processTable().some((e) => e.pgid === pgid);
  };
  killAll([-pgid], "SIGTERM");
  if (await emptied(10_000)) return;
  killAll([-pgid], "SIGKILL");
  await emptied(5_000);
}

export interface Server {
  url: string;
  port: number;
  /** The spawned command's pid; it leads its own process group. */
  pid: number;
  /** Everything the server printed so far (empty with a log file). */
  output: () => string;
  /** SIGTERM to the whole process group, SIGKILL after 10 s; resolves when it is empty. */
  stop: () => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerOptions {
  port: number;
  env?: NodeJS.ProcessEnv;
  logFile?: string;
  /** The server is ready once GET url+readyPath answers at all (default "/"). */
  readyPath?: string;
  readyTimeoutMs?: number;
}

// Ends the server's group once its spawner is gone (a test runner killed with SIGKILL, which no 'exit' handler sees).
const WATCHDOG = `
const [parent, group] = process.argv.slice(1).map(Number);
const live = () => { try { process.kill(-group, 0); return true; } catch (e) { return e.code === "EPERM"; } };
const kill = (s) => { try { process.kill(-group, s); } catch {} };
const timer = setInterval(() => {
  if (!live()) process.exit(0);
  if (process.ppid === parent) return;
  clearInterval(timer);
  kill("SIGTERM");
  setTimeout(() => { kill("SIGKILL"); process.exit(0); }, 10000);
}, 1000);
`;

/** A long-running command in a process group of its own, once http://127.0.0.1:PORT answers. */
export async function spawnServer(command: string, args: string[], options: ServerOptions): Promise<Server> {
  const log = options.logFile ? openSync(options.logFile, "w") : undefined;
  const child = spawn(command, args, {
    env: { ...process.env, CI: "true", ...options.env },
    stdio: ["ignore", log ?? "pipe", log ?? "pipe"],
    detached: true,
  });
  if (log !== undefined) closeSync(log);
  if (!child.pid) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  const end = () => killAll([-pid], "SIGTERM");
  atExit.add(end);
  spawn(process.execPath, ["-e", WATCHDOG, String(process.pid), String(pid)], {
    stdio: "ignore",
    detached: true,
  }).unref();
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  const stop = () => endGroup(pid).finally(() => atExit.delete(end));
  const url = `http://127.0.0.1:${options.port}`;
  const timeout = options.readyTimeoutMs ?? 180_000;
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(`${url}${options.readyPath ?? "/"}`, { signal: AbortSignal.timeout(5_000) });
      return { url, port: options.port, pid, output: () => output, stop, exited };
    } catch {
      await sleep(500);
    }
  }
  await stop();
  const why =
    child.exitCode !== null || child.signalCode !== null
      ? `exited (${child.exitCode ?? child.signalCode})`
      : `did not answer within ${timeout} ms`;
  throw new Error(
    `${command} ${args.join(" ")} ${why}${options.logFile ? ` (see ${options.logFile})` : `:\n${output}`}`,
  );
}
