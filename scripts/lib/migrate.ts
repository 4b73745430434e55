// Applies the D1 migrations (migrations/) with wrangler: to the local state under PERSIST_DIR, or
// with `remote` to the account's database.
import { spawn } from "node:child_process";
import { persistArgs } from "./local.ts";
import { killTree } from "./processes.ts";

export interface MigrateOptions {
  remote?: boolean;
  /** A wrangler environment such as "live". */
  environment?: string;
  /** Keep wrangler's output unless it fails (default: show it). */
  quiet?: boolean;
}

export async function applyMigrations({ remote = false, environment, quiet = false }: MigrateOptions = {}): Promise<void> {
  const args = ["wrangler", "d1", "migrations", "apply", "DB", ...(remote ? ["--remote"] : ["--local", ...persistArgs()])];
  if (environment) args.push("--env", environment);
  // CI=true: wrangler applies without asking for a confirmation on a terminal.
  const child = spawn("npx", args, { env: { ...process.env, CI: "true" }, stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"] });
  // If this process is stopped meanwhile (npm start, SIGTERM), wrangler must not go on alone.
  const stopChild = () => {
    if (child.pid) killTree(child.pid, "SIGTERM");
  };
  process.once("exit", stopChild);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const code = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c) => resolve(c ?? 1));
  }).finally(() => process.removeListener("exit", stopChild));
  if (code !== 0) throw new Error(`applying the migrations failed (wrangler exited with ${code})${output ? `:\n${output.trim()}` : ""}`);
}
