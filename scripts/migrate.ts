// `npm run db:migrate [-- --remote] [--env NAME]`: applies the migrations to the local D1
// (PERSIST_DIR), or with --remote to the account's. It names the database first, so that a
// command line that picks another one than meant shows it before anything is applied.
import { type CommandLine, failureLine, parseCommandLine, PLATFORM_OPTIONS, platformOf } from "./lib/cli.ts";

const COMMAND: CommandLine = {
  invocation: "npm run db:migrate --",
  usage: `Usage: npm run db:migrate [-- --remote] [--env NAME]
  Applies the migrations (migrations/) to the local D1 in PERSIST_DIR (default .wrangler/state).
  --remote     the Cloudflare account's database instead (needs wrangler login)
  --env NAME   a wrangler.toml environment, e.g. live (default: the top-level one, test mode)`,
};

async function main(argv: string[]): Promise<void> {
  const target = platformOf(parseCommandLine(argv, COMMAND, PLATFORM_OPTIONS).values);
  // Loaded once the command line is known to be good: wrangler is a large module.
  const { describeTarget } = await import("./lib/local.ts");
  const { applyMigrations } = await import("./lib/migrate.ts");
  console.log(`Applying the migrations to ${describeTarget(target)}...`);
  await applyMigrations(target);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(failureLine(err, COMMAND));
  process.exitCode = 1;
});
