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
const { resolveAdminToken } = await import("./lib/admin-token.ts");
const { banner } = await import("./lib/banner.ts");
const { PERSIST_DIR, PORT } = await import("./lib/local.ts");
const { rateLimitFromEnv, serveWithWrangler } = await import("./lib/wrangler-dev.ts");

function main(): void {
  const rateLimit = rateLimitFromEnv();
  const admin = resolveAdminToken(PERSIST_DIR);
  console.log(
    banner({
      title: "Order lookup API: npm run dev (local state as it is)",
      port: PORT,
      persistDir: PERSIST_DIR,
      adminToken: admin.token,
      adminTokenSource: admin.source,
      rateLimit,
      demoKey: null,
      examplePhone: null,
    }),
  );
  serveWithWrangler({ port: PORT, persistDir: PERSIST_DIR, adminToken: admin.token, rateLimit });
}

try {
  main();
} catch (error: unknown) {
  console.error(`npm run dev failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
