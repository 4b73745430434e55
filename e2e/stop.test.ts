// Stopping `npm start` and `npm run dev` as a process manager does: one signal (SIGTERM or SIGINT)
// to the npm process it started, and nothing else. Within 10 s every process the command started
// must be gone, the port closed and the temporary file with the admin token removed; a customer
// whose create was answered 201 must be there after a restart (docs/operations.md, "Stopping").
import { existsSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createBody } from "../test/fixtures/create-body.ts";
import { descendants, freePort, type Server, spawnServer, stillAlive, tempStateDir } from "../scripts/lib/processes.ts";

const STOP_LIMIT_MS = 10_000;
const persistDir = tempStateDir("olk-stop-");
let running: Server | undefined;
let demoKey = "";
/** Ids of the customers created so far (each answered 201), and the last one. */
const created: number[] = [];

afterAll(async () => {
  await running?.stop();
  rmSync(persistDir, { recursive: true, force: true });
});

async function launch(script: "start" | "dev"): Promise<Server> {
  const port = await freePort();
  running = await spawnServer("npm", script === "start" ? ["start"] : ["run", "dev"], {
    port,
    // Empty values: the defaults, whatever the environment running the tests has set.
    env: { PORT: String(port), PERSIST_DIR: persistDir, ADMIN_TOKEN: "", RATE_LIMIT_PER_MINUTE: "" },
    readyPath: "/api/area",
    readyTimeoutMs: 240_000,
  });
  return running;
}

async function createCustomer(server: Server): Promise<number> {
  const mobile = `6${String(Date.now()).slice(-9)}`;
  const res = await fetch(`${server.url}/api/customers/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${demoKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(createBody(mobile, { company_name: `Stop test ${mobile}`, contactpersons_name: "R. Sharma" })),
  });
  const body = (await res.json()) as { data: { id: number } };
  expect(res.status).toBe(201);
  return body.data.id;
}

/** The ids of the last few customers (ids grow, and the list is by id). */
async function lastCustomerIds(server: Server): Promise<number[]> {
  const get = async (query: string) => {
    const res = await fetch(`${server.url}/api/customers?${query}`, {
      headers: { Authorization: `Bearer ${demoKey}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { customers: { id: number }[]; pagination: { total: number } } }).data;
  };
  const { total } = (await get("count=1")).pagination;
  return (await get(`count=10&skip=${Math.max(0, total - 10)}`)).customers.map((c) => c.id);
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

/** The temporary env file that carried the admin token to wrangler, as wrangler reported it. */
function secretsFile(output: string): string {
  const match = /Using secrets defined in (\S+secrets\.env)/.exec(output);
  if (!match) throw new Error(`wrangler did not report the secrets file:\n${output}`);
  return join(process.cwd(), match[1]!);
}

/** Sends one signal to the npm process alone, as a process manager does, and checks the stop. */
async function stopWith(server: Server, signal: "SIGTERM" | "SIGINT"): Promise<void> {
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
  running = undefined;
  console.log(
    `${signal} to npm (${tree.length} processes): all gone after ${seconds.toFixed(1)} s; npm exited with ${exit.code ?? exit.signal}`,
  );
}

describe.sequential("one signal to the npm process stops everything, and no acknowledged write is lost", () => {
  it("npm start, SIGTERM", async () => {
    const server = await launch("start");
    demoKey = /^\s*Demo key\s+(\S+)/m.exec(server.output())?.[1] ?? "";
    expect(demoKey).toMatch(/^sk_test_/);
    created.push(await createCustomer(server));
    await stopWith(server, "SIGTERM");
  }, 300_000);

  it.each(["SIGINT", "SIGTERM"] as const)(
    "npm run dev, %s: the customer created before the last stop is there",
    async (signal) => {
      const server = await launch("dev");
      expect(await lastCustomerIds(server)).toContain(created.at(-1));
      created.push(await createCustomer(server));
      await stopWith(server, signal);
    },
    120_000,
  );

  it("after the last stop, every created customer is still there", async () => {
    const server = await launch("dev");
    const ids = await lastCustomerIds(server);
    for (const id of created) expect(ids).toContain(id);
    await server.stop();
    running = undefined;
  }, 120_000);
});
