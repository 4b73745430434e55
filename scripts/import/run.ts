// The db:import command (docs/commands.md) as a function: the command line in, its lines out and its
// exit status back, on the bindings that `openPlatform` gives it. scripts/import.ts runs it as
// `npm run db:import`; e2e/import-cli.test.ts runs it so and in-process.
import { existsSync, statSync } from "node:fs";
import type { ImportSummary } from "../../src/import/importer.ts";
import {
  type CommandLine,
  failureLine,
  type Output,
  parseOptions,
  PLATFORM_OPTIONS,
  platformOf,
  UsageError,
} from "../lib/cli.ts";
import type { Platform, Target } from "../lib/local.ts";
import { Progress } from "../lib/progress.ts";

export const IMPORT_COMMAND_LINE: CommandLine = {
  invocation: "npm run db:import --",
  usage: `Usage: npm run db:import -- FILE.json|FILE.jsonl [--remote] [--env NAME]
  Applies the migrations, then imports the file into the local D1 in PERSIST_DIR (default
  .wrangler/state), all or nothing, and empties the lookup cache.
  --remote     the Cloudflare account's database and cache instead (needs wrangler login)
  --env NAME   a wrangler.toml environment, e.g. live (default: the top-level one, test mode)`,
};

export interface ImportIo {
  out: Output;
  /** Where the progress lines go: standard error for the command, so standard output ends with the summary. */
  progress: NodeJS.WriteStream;
  /** The migrated bindings to import into, opened once the command line is known to be good; disposed after. */
  openPlatform(target: Target): Promise<Platform>;
}

/** Runs the command line `argv`: 0 when the file was imported, 1 (after one line on out.error) when not. */
export async function importCommand(argv: readonly string[], io: ImportIo): Promise<number> {
  const { out } = io;
  let file: string;
  let target: Target;
  try {
    const parsed = parseOptions(argv, PLATFORM_OPTIONS, 1);
    if (parsed.help) {
      out.log(IMPORT_COMMAND_LINE.usage);
      return 0;
    }
    target = platformOf(parsed.values);
    if (parsed.positionals[0] === undefined)
      throw new UsageError("FILE is required: the .json or .jsonl file to import", true);
    file = parsed.positionals[0];
  } catch (err) {
    out.error(failureLine(err, IMPORT_COMMAND_LINE));
    return 1;
  }
  if (!existsSync(file)) {
    out.error(`Import failed, nothing changed: no file ${file}`);
    return 1;
  }
  // Loaded once the command line is known to be good: wrangler is a large module.
  const { describeTarget } = await import("../lib/local.ts");
  const { importFile, PurgeError } = await import("./file.ts");
  const { ImportRunningError } = await import("../../src/import/importer.ts");
  let platform: Platform;
  try {
    out.log(`Importing ${file} into ${describeTarget(target)}...`);
    platform = await io.openPlatform(target);
  } catch (err) {
    out.error(failureLine(err, IMPORT_COMMAND_LINE));
    return 1;
  }
  const progress = new Progress({ label: "import", total: statSync(file).size, stream: io.progress });
  try {
    const summary = await importFile(file, platform.env, (type, bytesRead) => progress.record(type, bytesRead));
    progress.stop();
    out.log(report(file, summary));
    return 0;
  } catch (err) {
    progress.stop(false);
    if (err instanceof PurgeError) out.error(`Imported ${file}, but ${err.message}`);
    else if (err instanceof ImportRunningError) out.error(`Import refused, nothing changed: ${err.message}`);
    // One line naming the record and the field (for an ImportError); the database is as it was.
    else out.error(`Import failed, nothing changed: ${(err as Error).message ?? err}`);
    return 1;
  } finally {
    await platform.dispose();
  }
}

function report(file: string, summary: ImportSummary): string {
  const counts = Object.entries(summary.counts)
    .map(([table, n]) => `${n} ${table.replace(/_/g, " ")}`)
    .join(", ");
  // Rows written: 0 for a file that changes nothing (docs/specification.md section 8).
  if (summary.rowsWritten === 0) {
    return `Imported ${file} in ${summary.seconds.toFixed(1)} s: nothing changed: the database already holds the file's ${counts} as given. Lookup cache purged.`;
  }
  return `Imported ${file} in ${summary.seconds.toFixed(1)} s: ${counts}; ${summary.rowsWritten} rows written. Lookup cache purged.`;
}
