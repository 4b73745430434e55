// The project's wrangler for the node-side tests, run on the test's own Node.js: no `npx` (an npm
// start of its own, half a second of CPU) in front of each command.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type CommandResult, run } from "../../scripts/lib/processes.ts";

export const WRANGLER_BIN = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

/** Runs a wrangler command to completion and keeps its output (as run() does). */
export function wrangler(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  return run(process.execPath, [WRANGLER_BIN, ...args], env);
}
