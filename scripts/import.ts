// npm run db:import -- FILE [--remote] [--env live]: applies the migrations, imports a dataset file
// (.json or .jsonl, CONTRACTS.md) all or nothing, and purges the lookup cache.
import { existsSync, statSync } from "node:fs";
import { importFile, PurgeError } from "./import/file.ts";
import type { ImportSummary } from "./import/index.ts";
import { openPlatform, platformFlags } from "./lib/local.ts";
import { applyMigrations } from "./lib/migrate.ts";
import { Progress } from "./lib/progress.ts";

const USAGE = "usage: npm run db:import -- FILE.json|FILE.jsonl [--remote] [--env NAME]";

async function main(argv: string[]): Promise<number> {
  const flags = platformFlags(argv);
  const file = argv.find((a, i) => !a.startsWith("--") && argv[i - 1] !== "--env");
  if (!file) {
    console.error(USAGE);
    return 2;
  }
  if (!existsSync(file)) {
    console.error(`Import failed, nothing changed: no file ${file}`);
    return 1;
  }
  await applyMigrations({ ...flags, quiet: true });
  const platform = await openPlatform(flags);
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
  return `Imported ${file} in ${summary.seconds.toFixed(1)} s: ${counts}. Lookup cache purged.`;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error((err as Error).message ?? err);
    process.exitCode = 1;
  },
);
