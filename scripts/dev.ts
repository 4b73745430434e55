// `npm run dev`: `wrangler dev` on the local state as it is: no migrations, no seeding, no keys.
// ADMIN_TOKEN and RATE_LIMIT_PER_MINUTE are honoured as by `npm start`.
import { type CommandLine, parseCommandLine, SERVE_ENVIRONMENT } from "./lib/cli.ts";

const COMMAND: CommandLine = {
  invocation: "npm run dev --",
  usage: `Usage: npm run dev
  Serves the API with wrangler dev on the local state as it is: no migrations, no seeding, no keys.
${SERVE_ENVIRONMENT}`,
};

// The command line first: --help and mistakes answer at once, without loading wrangler (seconds).
parseCommandLine(process.argv.slice(2), COMMAND, {});
const { serve, serveSettings } = await import("./lib/wrangler-dev.ts");
const { buildApp } = await import("./app/build.ts");
try {
  await buildApp();
  serve(serveSettings(), "Order lookup API: npm run dev (local state as it is)", null);
} catch (error: unknown) {
  console.error(`npm run dev failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
