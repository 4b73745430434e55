// `npm start`: the service on a fresh clone. Applies the migrations to the local D1, loads the demo
// dataset when the database has no customers, issues a demo test-mode key and makes sure an
// administrator token exists, prints both, then serves with `wrangler dev` on 127.0.0.1:$PORT.
import { DEMO_OPTIONS } from "./dataset/index.ts";
import { type CommandLine, parseCommandLine, SERVE_ENVIRONMENT } from "./lib/cli.ts";
import type { Platform } from "./lib/local.ts";

const COMMAND: CommandLine = {
  invocation: "npm start --",
  usage: `Usage: npm start
  Applies the migrations to the local D1, loads ${DEMO_OPTIONS.out} into an empty database, prints a
  new demo test-mode key and the administrator token, then serves the API with wrangler dev.
${SERVE_ENVIRONMENT}`,
};

// The command line first: --help and mistakes answer at once, without loading wrangler (seconds).
parseCommandLine(process.argv.slice(2), COMMAND, {});
const { importFile } = await import("./import/file.ts");
const { issueDemoKey } = await import("./lib/demo-key.ts");
const { PERSIST_DIR, PORT } = await import("./lib/local.ts");
const { openMigratedPlatform } = await import("./lib/migrate.ts");
const { serve, serveSettings } = await import("./lib/wrangler-dev.ts");
const { KeyStore } = await import("../src/keys/keys.store.ts");
const { buildApp } = await import("./app/build.ts");
const { demoAppLink } = await import("./app/demo-link.ts");

async function loadDemoDataIfEmpty(platform: Platform): Promise<void> {
  const row = await platform.env.DB.prepare("SELECT COUNT(*) AS n FROM customers").first<{ n: number }>();
  const customers = row?.n ?? 0;
  if (customers > 0) {
    console.log(`The local database has ${customers} customers already: the demo data is not loaded again.`);
    return;
  }
  console.log(`Loading the demo data (${DEMO_OPTIONS.out}) into the empty local database...`);
  const summary = await importFile(DEMO_OPTIONS.out, platform.env);
  console.log(
    `Loaded ${summary.counts.customers ?? 0} customers and ${summary.counts.orders ?? 0} orders in ${summary.seconds.toFixed(1)} s.`,
  );
}

/** The normalized number of the first customer with orders, for the example request. */
async function examplePhone(platform: Platform): Promise<string | null> {
  const row = await platform.env.DB.prepare(
    "SELECT phone_key FROM customers c WHERE phone_key IS NOT NULL AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) ORDER BY c.id LIMIT 1",
  ).first<{ phone_key: string }>();
  return row?.phone_key ?? null;
}

async function main(): Promise<void> {
  const settings = serveSettings();

  console.log(`Applying the migrations to the local D1 in ${PERSIST_DIR}...`);
  const platform = await openMigratedPlatform({});
  let demoKey: string;
  let phone: string | null;
  let appLink: string | null;
  try {
    await loadDemoDataIfEmpty(platform);
    const issued = await issueDemoKey(new KeyStore(platform.env.KEYS, platform.env.DB));
    demoKey = issued.secret;
    if (issued.copyPending) {
      console.warn(
        "Warning: the demo key's copy for authentication could not be written to the local KV: it may be refused. Start again for a new one.",
      );
    }
    phone = await examplePhone(platform);
    appLink = await demoAppLink(platform, `http://127.0.0.1:${PORT}`);
  } finally {
    // wrangler dev opens the same state next; the proxy must let go of it first.
    await platform.dispose();
  }

  await buildApp();
  serve(settings, "Order lookup API: npm start (local D1 and KV, test mode)", { key: demoKey, phone, appLink });
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
