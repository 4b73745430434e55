// Runs a command of the operator's tools (npm, npx wrangler) as a child process and reports how it
// ended. Output goes to the terminal as it comes; `capture` also keeps it, for the few commands
// whose answer the tools read (an id that wrangler prints, a JSON listing).
import { spawn } from "node:child_process";

export interface RunOptions {
  /** Variables added to this process's environment for the child. */
  env?: Record<string, string>;
  /** Keep stdout (returned) and do not show it; stderr still reaches the terminal. */
  capture?: boolean;
}

export interface RunResult {
  code: number;
  stdout: string;
}

export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...options.env },
      stdio: ["inherit", options.capture ? "pipe" : "inherit", "inherit"],
    });
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout }));
  });
}

/** run(), failing unless the command exits 0. */
export async function runChecked(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const { code, stdout } = await run(command, args, options);
  if (code !== 0) throw new Error(`\`${[command, ...args].join(" ")}\` exited with status ${code}`);
  return stdout;
}

/** The project's own wrangler (its devDependency), on the Node.js that runs this script. */
export function wrangler(args: string[], options: RunOptions = {}): Promise<string> {
  return runChecked("npx", ["wrangler", ...args], options);
}
