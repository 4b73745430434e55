// Applies the D1 migrations (migrations/) with wrangler: to the local state under PERSIST_DIR, or
// with `remote` to the account's database.
import { persistArgs } from "./local.ts";
import { run } from "./processes.ts";
import { WRANGLER_BIN } from "./wrangler-env.ts";

export interface MigrateOptions {
  remote?: boolean;
  /** A wrangler environment such as "live". */
  environment?: string;
  /** Keep wrangler's output unless it fails (default: show it). */
  quiet?: boolean;
}

export async function applyMigrations({
  remote = false,
  environment,
  quiet = false,
}: MigrateOptions = {}): Promise<void> {
  const target = remote ? ["--remote"] : ["--local", ...persistArgs()];
  // Locally, the project's wrangler with this Node, not through npx: one npm process less (about 85 MB)
  // beside a large import. Remotely, through npx like every other step of a deploy, so that all of a
  // deploy's wrangler commands resolve wrangler the same way.
  const [command, wrangler] = remote ? ["npx", "wrangler"] : [process.execPath, WRANGLER_BIN];
  const args = [wrangler, "d1", "migrations", "apply", "DB", ...target, ...(environment ? ["--env", environment] : [])];
  // run() sets CI=true: wrangler applies without asking for a confirmation on a terminal.
  const { code, stdout, stderr } = await run(command, args, {}, quiet ? "capture" : "terminal");
  const output = `${stdout}${stderr}`.trim();
  if (code !== 0)
    throw new Error(`applying the migrations failed (wrangler exited with ${code})${output ? `:\n${output}` : ""}`);
}
