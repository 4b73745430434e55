// The operator's commands on one state folder: `npm start` twice (a fresh one that loads the demo
// data, then a restart), then `npm run dev`. Checks what they print, that the printed credentials
// work, that no API key secret is written to the state folder, and that one signal to npm (SIGTERM
// or SIGINT, as a process manager sends) ends every process within 10 s with no acknowledged write
// lost (docs/operations.md, "Stopping"). Both commands stop through the same code (`serve()` of
// scripts/lib/wrangler-dev.ts), so each signal is sent once to `npm start` and `npm run dev` is
// stopped once; a start costs about 13 s of CPU.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { normalizePhone } from "../src/platform/lib/phone.ts";
import { createBody } from "../test/fixtures/create-body.ts";
import { descendants, freePort, stillAlive, tempStateDir } from "../scripts/lib/processes.ts";
import { startServer, type DevServer } from "./helpers/server.ts";
import { executeOnStoppedState, queryStoppedState } from "./helpers/state.ts";

interface DemoCustomer {
  id: number;
  contact_person_name: string;
  company_name: string;
  contactperson_number: string;
}
const demo = JSON.parse(readFileSync("data/demo.json", "utf8")) as {
  customers: DemoCustomer[];
  orders: { id: number; customer_id: number }[];
};
const demoCustomer = demo.customers[0]!;
const demoCustomerOrderIds = demo.orders.filter((o) => o.customer_id === demoCustomer.id).map((o) => o.id);

const STEP_TIMEOUT = 300_000;
const STOP_LIMIT_MS = 10_000;
const ENV_ADMIN_TOKEN = "e2e-admin-token-from-the-environment-0123";

const persistDir = tempStateDir("olk-start-");
let running: DevServer | null = null;

/** `npm start` or `npm run dev` on the shared state folder and a free port; an undefined variable is left unset. */
async function launch(script: "start" | "dev", env: Record<string, string | undefined> = {}): Promise<DevServer> {
  const port = await freePort();
  const args = script === "start" ? ["start"] : ["run", "dev"];
  // Empty values: the defaults, whatever the environment running the tests has set.
  running = await startServer("npm", args, {
    ADMIN_TOKEN: "",
    RATE_LIMIT_PER_MINUTE: "",
    ...(env as Record<string, string>),
    PORT: String(port),
    PERSIST_DIR: persistDir,
  });
  return running;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/** Sends one signal to the npm process alone, as a process manager does, and checks the stop. */
async function stopWith(server: DevServer, signal: "SIGTERM" | "SIGINT"): Promise<void> {
  const tree = [server.pid, ...descendants(server.pid)];
  // npm, node, wrangler's two node processes and its two workerd at least.
  expect(tree.length).toBeGreaterThanOrEqual(6);
  const secrets = secretsFile(server.output());
  expect(existsSync(secrets)).toBe(true);

  const started = Date.now();
  process.kill(server.pid, signal);
  while (stillAlive(tree).length > 0 && Date.now() - started < STOP_LIMIT_MS)
    await new Promise((r) => setTimeout(r, 100));
  const seconds = (Date.now() - started) / 1000;
  expect(stillAlive(tree), `processes left ${seconds} s after ${signal}`).toEqual([]);
  expect(await refused(server.port)).toBe(true);
  expect(existsSync(secrets)).toBe(false);
  expect(existsSync(dirname(secrets))).toBe(false);
  const exit = await server.exited;
  running = null;
  console.log(
    `${signal} to npm (${tree.length} processes): all gone after ${seconds.toFixed(1)} s; npm exited with ${exit.code ?? exit.signal}`,
  );
}

function printed(output: string, label: string): string {
  const match = new RegExp(`^\\s*${label}\\s+(\\S+)`, "m").exec(output);
  if (!match) throw new Error(`no "${label}" line in the output:\n${output}`);
  return match[1]!;
}

async function get(server: DevServer, path: string, credential: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${credential}` } });
  return { status: res.status, body: (await res.json()) as any };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** The temporary env file that carried the admin token to wrangler, as wrangler reported it. */
function secretsFile(output: string): string {
  const match = /Using secrets defined in (\S+secrets\.env)/.exec(output);
  if (!match) throw new Error(`wrangler did not report the secrets file:\n${output}`);
  return join(process.cwd(), match[1]!);
}

afterAll(async () => {
  await running?.stop();
  rmSync(persistDir, { recursive: true, force: true });
});

describe.sequential("npm start and npm run dev, each stopped by a signal", { timeout: STEP_TIMEOUT }, () => {
  const demoKeys: string[] = [];
  let storedAdminToken = "";
  /** Ids of the customers created so far, each answered 201 before a stop. */
  const created: number[] = [];

  async function expectDemoDataServed(server: DevServer, key: string): Promise<void> {
    const customers = await get(server, "/api/customers?count=1", key);
    expect(customers.status).toBe(200);
    expect(customers.body.data.pagination.total).toBe(demo.customers.length + created.length);
    expect(customers.body.data.customers).toHaveLength(1);
    expect(customers.body.data.customers[0]).toMatchObject({
      id: demoCustomer.id,
      contact_person_name: demoCustomer.contact_person_name,
      company_name: demoCustomer.company_name,
      contactperson_number: demoCustomer.contactperson_number,
    });

    const phone = normalizePhone(demoCustomer.contactperson_number);
    const orders = await get(server, `/api/orders?phone_number=${phone}&count=100`, key);
    expect(orders.status).toBe(200);
    expect(orders.body.data.pagination.total).toBe(demoCustomerOrderIds.length);
    const served = orders.body.data.orders as { id: number; customer: { id: number } }[];
    expect(served.map((o) => o.id).sort((a, b) => a - b)).toEqual([...demoCustomerOrderIds].sort((a, b) => a - b));
    expect(served.every((o) => o.customer.id === demoCustomer.id)).toBe(true);
  }

  async function createCustomer(server: DevServer, key: string): Promise<void> {
    const mobile = `6${String(Date.now()).slice(-9)}`;
    const res = await fetch(`${server.url}/api/customers/create`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(
        createBody(mobile, { company_name: `Stop test ${mobile}`, contactpersons_name: "R. Sharma" }),
      ),
    });
    expect(res.status).toBe(201);
    created.push(((await res.json()) as { data: { id: number } }).data.id);
  }

  /** Every customer created before the stops is there (ids grow, and the list is by id). */
  async function expectCreatedKept(server: DevServer, key: string): Promise<void> {
    const total = demo.customers.length + created.length;
    const last = await get(server, `/api/customers?count=10&skip=${Math.max(0, total - 10)}`, key);
    expect(last.status).toBe(200);
    const ids = (last.body.data.customers as { id: number }[]).map((c) => c.id);
    expect(ids.slice(-created.length)).toEqual(created);
  }

  it("a fresh npm start migrates, loads the demo data, prints a working key and token; SIGTERM ends it", async () => {
    // ADMIN_TOKEN not set at all: npm start makes the token itself, so nothing warns that it is missing.
    const server = await launch("start", { ADMIN_TOKEN: undefined });
    const output = server.output();
    expect(output).toContain("Loading the demo data");
    expect(output).not.toContain("Missing required secrets");
    // The test suite turns the jobs off (vitest.config.ts) unless a test turns them on.
    expect(output).toContain("Scheduled jobs: off (SCHEDULED_JOBS=off).");
    // Started with --test-scheduled: no warning that the crons do not run, and one runs on request.
    expect(output).not.toContain("Scheduled Workers are not automatically triggered");
    const cron = await fetch(`${server.url}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect({ status: cron.status, text: await cron.text() }).toEqual({ status: 200, text: "Ran scheduled event" });
    const key = printed(output, "Demo key");
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
    demoKeys.push(key);
    await expectDemoDataServed(server, key);
    expect(output).toContain(`curl -H "Authorization: Bearer ${key}" ${server.url}/api/customers`);
    // The field app's one-time link: a new enrollment code at each start (opened in a browser by
    // e2e/field-app.test.ts's way of enrolling; not exchanged here, which would add a key to the list).
    const appLink = printed(output, "Field app");
    expect(appLink).toMatch(new RegExp(`^${server.url}/enroll#[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$`));

    const adminToken = printed(output, "Admin token");
    expect(adminToken).toMatch(/^[0-9A-Za-z]{43}$/);
    const tokenFile = join(persistDir, "admin-token");
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(adminToken);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    storedAdminToken = adminToken;
    // Printed once, by us: wrangler shows the binding as hidden.
    expect(output.split(adminToken)).toHaveLength(2);

    const keys = await get(server, "/admin/keys", adminToken);
    expect(keys.status).toBe(200);
    expect(keys.body.data).toHaveLength(1);
    expect(keys.body.data[0]).toMatchObject({
      name: "demo",
      mode: "test",
      status: "active",
      prefix: `${key.slice(0, 12)}…`,
    });

    await createCustomer(server, key);
    await stopWith(server, "SIGTERM");
  });

  it("a second npm start keeps the data, rolls the demo key, honours ADMIN_TOKEN; SIGINT ends it", async () => {
    const server = await launch("start", { ADMIN_TOKEN: ENV_ADMIN_TOKEN });
    const output = server.output();
    expect(output).not.toContain("Loading the demo data");
    expect(output).toContain("the demo data is not loaded again");

    const key = printed(output, "Demo key");
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
    expect(key).not.toBe(demoKeys[0]);
    demoKeys.push(key);
    await expectDemoDataServed(server, key);
    await expectDemoDataServed(server, demoKeys[0]!);

    expect(printed(output, "Admin token")).toBe(ENV_ADMIN_TOKEN);
    const keys = await get(server, "/admin/keys", ENV_ADMIN_TOKEN);
    expect(keys.status).toBe(200);
    expect(
      keys.body.data.map((k: { name: string; status: string; prefix: string }) => [k.name, k.status, k.prefix]),
    ).toEqual([
      ["demo", "grace", `${demoKeys[0]!.slice(0, 12)}…`],
      ["demo", "active", `${key.slice(0, 12)}…`],
    ]);
    // The stored token is not the administrator's while ADMIN_TOKEN is set, and is left as it was.
    expect((await get(server, "/admin/keys", storedAdminToken)).status).toBe(401);
    expect(readFileSync(join(persistDir, "admin-token"), "utf8").trim()).toBe(storedAdminToken);

    await expectCreatedKept(server, key);
    await createCustomer(server, key);
    await stopWith(server, "SIGINT");
  });

  it("npm run dev serves the state without migrating or seeding, runs the jobs; SIGTERM ends it", async () => {
    // Both keys' copies marked pending, as after a KV write that failed: only the 5-minute job writes them.
    await executeOnStoppedState(persistDir, "UPDATE api_keys SET copy_pending = 1, version = version + 1");
    // Every 2 s instead of every 5 minutes; nothing asks for a job by hand.
    const server = await launch("dev", { SCHEDULED_JOBS: "2" });
    const output = server.output();
    expect(output).toContain('Scheduled jobs: "17 3 * * *", "*/5 * * * *", each every 2 s (SCHEDULED_JOBS).');
    await expect
      .poll(
        async () => (await get(server, "/admin/keys", storedAdminToken)).body.data.map((k: any) => k.copy_pending),
        {
          timeout: 30_000,
          interval: 500,
        },
      )
      .toEqual([false, false]);
    expect(output).not.toMatch(/sk_(test|live)_/);
    expect(output).not.toContain("Applying the migrations");
    expect(output).not.toContain("demo data");
    await expectDemoDataServed(server, demoKeys[1]!);
    await expectDemoDataServed(server, demoKeys[0]!);

    expect(printed(output, "Admin token")).toBe(storedAdminToken);
    const keys = await get(server, "/admin/keys", storedAdminToken);
    expect(keys.status).toBe(200);
    expect(keys.body.data).toHaveLength(2);

    await expectCreatedKept(server, demoKeys[1]!);
    await createCustomer(server, demoKeys[1]!);
    await stopWith(server, "SIGTERM");
  });

  it("every customer answered 201 before a stop is in the stopped state", async () => {
    expect(created).toHaveLength(3);
    const rows = await queryStoppedState(
      persistDir,
      `SELECT id FROM customers WHERE id IN (${created.join(",")}) ORDER BY id`,
    );
    expect(rows.map((r) => r.id)).toEqual(created);
  });

  it("no file under the state folder holds a demo key's secret", () => {
    expect(demoKeys).toHaveLength(2);
    const files = filesUnder(persistDir);
    expect(files.length).toBeGreaterThan(1);
    for (const secret of demoKeys) {
      const randomPart = secret.slice("sk_test_".length);
      const holding = files.filter((file) => readFileSync(file).includes(randomPart));
      expect(holding).toEqual([]);
    }
  });
});
