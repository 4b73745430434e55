// npm run db:migrate [-- --remote] [--env live]: applies the migrations to the local D1 (PERSIST_DIR).
import { applyMigrations } from "./lib/migrate.ts";
import { platformFlags } from "./lib/local.ts";

try {
  await applyMigrations(platformFlags(process.argv.slice(2)));
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
