// npm run db:import -- FILE [--remote] [--env NAME]: applies the migrations, imports a dataset file
// (.json or .jsonl, docs/operations.md "Importing data") all or nothing, and purges the lookup cache.
import { existsSync, statSync } from "node:fs";
import type { ImportSummary } from "../src/import/importer.ts";
import {
  type CommandLine,
  failureLine,
  parseCommandLine,
  PLATFORM_OPTIONS,
  platformOf,
  UsageError,
} from "./lib/cli.ts";
import { Progress } from "./lib/progress.ts";

const COMMAND: CommandLine = {
  invocation: "npm run db:import --",
  usage: `Usage: npm run db:import -- FILE.json|FILE.jsonl [--remote] [--env NAME]
  Applies the migrations, then imports the file into the local D1 in PERSIST_DIR (default
  .wrangler/state), all or nothing, and empties the lookup cache.
  --remote     the Cloudflare account's database and cache instead (needs wrangler login)
  --env NAME   a wrangler.toml environment, e.g. live (default: the top-level one, test mode)`,
};

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, COMMAND, PLATFORM_OPTIONS, 1);
  const target = platformOf(values);
  const file = positionals[0];
  if (file === undefined) throw new UsageError("FILE is required: the .json or .jsonl file to import", true);
  if (!existsSync(file)) {
    console.error(`Import failed, nothing changed: no file ${file}`);
    return 1;
  }
  // Loaded once the command line is known to be good: wrangler is a large module.
  const { describeTarget } = await import("./lib/local.ts");
  const { applyMigrations, openMigratedPlatform } = await import("./lib/migrate.ts");
  const { importFile, PurgeError } = await import("./import/file.ts");
  console.log(`Importing ${file} into ${describeTarget(target)}...`);
  // Locally the migrations are applied through the bindings opened next; the account's with wrangler.
  if (target.remote) await applyMigrations({ ...target, quiet: true });
  const platform = await openMigratedPlatform(target);
  // On standard error: the last line of standard output stays the summary.
  const progress = new Progress({ label: "import", total: statSync(file).size });
  try {
    const summary = await importFile(file, platform.env, (type, bytesRead) => progress.record(type, bytesRead));
    progress.stop();
    console.log(report(file, summary));
    return 0;
  } catch (err) {
    progress.stop(false);
    if (err instanceof PurgeError) console.error(`Imported ${file}, but ${err.message}`);
    // One line naming the record and the field (for an ImportError); the database is as it was.
    else console.error(`Import failed, nothing changed: ${(err as Error).message ?? err}`);
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
  return `Imported ${file} in ${summary.seconds.toFixed(1)} s: ${counts}; ${summary.rowsWritten} rows written. Lookup cache purged.`;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(failureLine(err, COMMAND));
    process.exitCode = 1;
  },
);
