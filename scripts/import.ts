// npm run db:import -- FILE [--remote] [--env NAME]: applies the migrations, imports a dataset file
// (.json or .jsonl, docs/operations.md "Importing data") all or nothing, and purges the lookup cache.
// The command is ./import/run.ts.
import { importCommand } from "./import/run.ts";
import { consoleOutput } from "./lib/cli.ts";

const code = await importCommand(process.argv.slice(2), {
  out: consoleOutput,
  progress: process.stderr,
  openPlatform: async (target) => {
    const { applyMigrations, openMigratedPlatform } = await import("./lib/migrate.ts");
    // Locally the migrations are applied through the bindings opened here; the account's with wrangler.
    if (target.remote) await applyMigrations({ ...target, quiet: true });
    return openMigratedPlatform(target);
  },
});
// Explicitly: wrangler's platform proxy may leave handles that would keep the process alive.
process.exit(code);
