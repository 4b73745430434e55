// `npm run dev`: `wrangler dev` on the local state as it is: no migrations, no seeding, no keys.
// ADMIN_TOKEN and RATE_LIMIT_PER_MINUTE are honoured as by `npm start`.
import { resolveAdminToken } from "./lib/admin-token.ts";
import { banner } from "./lib/banner.ts";
import { PERSIST_DIR, PORT } from "./lib/local.ts";
import { rateLimitFromEnv, serveWithWrangler } from "./lib/wrangler-dev.ts";

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
