// `npm start`: the service on a fresh clone. Applies the migrations to the local D1, loads the demo
// dataset when the database has no customers, issues a demo test-mode key and makes sure an
// administrator token exists, prints both, then serves with `wrangler dev` on 127.0.0.1:$PORT.
import { DEMO_OPTIONS } from "./dataset/index.ts";
import { type CommandLine, parseCommandLine, SERVE_ENVIRONMENT } from "./lib/cli.ts";
import type { Platform } from "./lib/local.ts";
import type { CreatedKey } from "../src/keys/keys.record.ts";

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
const { PERSIST_DIR, PORT } = await import("./lib/local.ts");
const { openMigratedPlatform } = await import("./lib/migrate.ts");
const { serve, serveSettings } = await import("./lib/wrangler-dev.ts");
const { DEFAULT_GRACE_SECONDS, KeyStore } = await import("../src/keys/keys.store.ts");
const { Enrollments } = await import("../src/enroll/enroll.codes.ts");
const { buildApp } = await import("./app/build.ts");

/** Who the key audit log names for the demo key's and the demo link's changes. */
const START = { actor: "start" } as const;

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

/**
 * The demo API key. The key store keeps only hashes, so a secret can be shown only when it is made: each
 * start rolls the previous demo key (which keeps working for the default grace of 24 hours) or makes the first one.
 */
async function issueDemoKey({ KEYS, DB }: Env): Promise<CreatedKey> {
  const keys = new KeyStore(KEYS, DB);
  const current = (await keys.list())
    .filter((k) => k.name === "demo" && k.mode === "test" && keys.stateOf(k) === "active")
    .at(-1);
  const rolled = current && (await keys.roll(current.id, DEFAULT_GRACE_SECONDS, START));
  return rolled || keys.create({ name: "demo", mode: "test" }, START);
}

/**
 * The one-time link into the field app: an enrollment code for the sales agent with the most customers
 * (so that the app shows a full book), as the QR code's link `<base>/enroll#<code>` (docs/specification.md section 9).
 */
async function demoAppLink({ DB, KEYS }: Env, base: string): Promise<string | null> {
  const agent = await DB.prepare(
    "SELECT salesagent_id AS id FROM customers WHERE salesagent_id IS NOT NULL GROUP BY salesagent_id ORDER BY count(*) DESC, salesagent_id LIMIT 1",
  ).first<{ id: number }>();
  if (!agent) return null;
  const enrollments = new Enrollments(DB, new KeyStore(KEYS, DB));
  const made = await enrollments.create({ agent_id: agent.id, mode: "test", name: "demo app" }, START);
  return `${base}/enroll#${made.code}`;
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
    const issued = await issueDemoKey(platform.env);
    demoKey = issued.secret;
    if (issued.copyPending) {
      console.warn(
        "Warning: the demo key's copy for authentication could not be written to the local KV: it may be refused. Start again for a new one.",
      );
    }
    phone = await examplePhone(platform);
    appLink = await demoAppLink(platform.env, `http://127.0.0.1:${PORT}`);
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
