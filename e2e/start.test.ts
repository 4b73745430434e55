// The operator's commands on one state folder: `npm start` twice (a fresh one that loads the demo
// data, then a restart), then `npm run dev`. Checks what they print, that the printed credentials
// work against the real server, and that no API key secret is ever written to the state folder.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { normalizePhone } from "../src/platform/lib/phone.ts";
import { freePort, tempStateDir } from "../scripts/lib/processes.ts";
import { startServer, type DevServer } from "./helpers/server.ts";
import { executeOnStoppedState } from "./helpers/state.ts";

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

/** Stops the server and waits until its port is closed, so that the next one has the state to itself. */
async function shutDown(server: DevServer): Promise<void> {
  await server.stop();
  running = null;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      await fetch(`${server.url}/api/area`);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server on ${server.url} did not stop`);
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
  if (running) await shutDown(running);
  rmSync(persistDir, { recursive: true, force: true });
});

describe.sequential("npm start and npm run dev on one state folder", () => {
  const demoKeys: string[] = [];
  let storedAdminToken = "";

  async function expectDemoDataServed(server: DevServer, key: string): Promise<void> {
    const customers = await get(server, "/api/customers?count=1", key);
    expect(customers.status).toBe(200);
    expect(customers.body.data.pagination.total).toBe(demo.customers.length);
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

  it(
    "a fresh npm start migrates, loads the demo data, and prints a working demo key and admin token",
    async () => {
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

      await shutDown(server);
      expect(existsSync(secretsFile(output))).toBe(false);
    },
    STEP_TIMEOUT,
  );

  it(
    "a second npm start keeps the data, rolls the demo key (the old one still works) and honours ADMIN_TOKEN",
    async () => {
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

      await shutDown(server);
    },
    STEP_TIMEOUT,
  );

  it(
    "npm run dev serves the same state without migrating, seeding or printing a key, and runs the scheduled jobs",
    async () => {
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

      await shutDown(server);
      expect(existsSync(secretsFile(output))).toBe(false);
    },
    STEP_TIMEOUT,
  );

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
