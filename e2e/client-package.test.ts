// The typed client as an app installs it (docs/decisions.md, "The client package"): `npm pack` of
// packages/client, installed into an empty project that has only TypeScript (and the package's hono), where a
// small app type-checks under strict with lib ES2022 and DOM and no other types, and its JavaScript loads.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const CLIENT = join(ROOT, "packages/client");
const TYPESCRIPT = (
  JSON.parse(readFileSync(join(ROOT, "node_modules/typescript/package.json"), "utf8")) as {
    version: string;
  }
).version;

/** A command in folder `cwd`, with its exit status, output and wall-clock seconds. */
function runIn(cwd: string, command: string, args: string[]) {
  const started = performance.now();
  return new Promise<{ code: number; out: string; seconds: number }>((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_update_notifier: "false" } });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.once("error", fail);
    child.once("close", (code) => done({ code: code ?? 1, out, seconds: (performance.now() - started) / 1000 }));
  });
}

/** What an app writes: a client, a sync over a store, the record types; each @ts-expect-error must be an error. */
const APP = `import {
  type Change,
  createClient,
  type Customer,
  type ErrorEnvelope,
  exchangeEnrollmentCode,
  keyRotation,
  MemorySyncStore,
  type Order,
  type RecordKind,
  type RecordOf,
  type SyncPosition,
  type SyncStore,
  sync,
} from "@order-lookup/client";

const BASE = "https://orders.example.com";

/** The app's own store: a Map per kind, each answer applied whole. */
class AppStore implements SyncStore {
  records: { [K in RecordKind]: Map<number, RecordOf[K]> } = { customer: new Map(), order: new Map() };
  position: SyncPosition | null = null;
  async get<K extends RecordKind>(kind: K, id: number): Promise<RecordOf[K] | undefined> {
    return this.records[kind].get(id);
  }
  async put<K extends RecordKind>(kind: K, id: number, record: RecordOf[K]) {
    this.records[kind].set(id, record);
  }
  async delete(kind: RecordKind, id: number) {
    this.records[kind].delete(id);
    if (kind === "order") return;
    for (const [orderId, order] of this.records.order) if (order.customer.id === id) this.records.order.delete(orderId);
  }
  async listIds(kind: RecordKind) {
    return [...this.records[kind].keys()];
  }
  async getCursor() {
    return this.position;
  }
  async putCursor(position: SyncPosition | null) {
    this.position = position;
  }
  async clear() {
    this.records = { customer: new Map(), order: new Map() };
    this.position = null;
  }
  async applyAnswer(changes: readonly Change[], position: SyncPosition) {
    for (const change of changes) {
      if (change.op === "delete" || !change.data) await this.delete(change.type, change.id);
      else if (change.type === "customer") this.records.customer.set(change.id, change.data);
      else this.records.order.set(change.id, change.data);
    }
    this.position = position;
  }
}

export async function main(secret: string): Promise<string[]> {
  const rotation = keyRotation(BASE, { secret, store: async (key) => void key.secret, onError: (e) => e.stage });
  const api = createClient(BASE, rotation.secret, { fetch: rotation.fetch });
  const store = new AppStore();
  const memory = new MemorySyncStore();
  await sync(api, store, { limit: 500 });
  await sync(api, memory);

  const customer: Customer | undefined = await memory.get("customer", 1);
  const order: Order | undefined = await memory.get("order", 101);
  // @ts-expect-error: a customer is not an order
  const wrong: Order | undefined = await memory.get("customer", 1);
  // @ts-expect-error: an order goes under "order"
  if (order) await memory.put("customer", order.id, order);
  const lines: string[] = [customer?.company_name ?? "", String(order?.billable_amount), String(wrong)];
  if (customer && !Array.isArray(customer.address)) lines.push(customer.address.postalcode.code);

  const res = await api.orders.$get({ query: { phone_number: "9820000001", count: "5" } });
  if (res.status === 200) {
    const { data } = await res.json();
    const first: Order | undefined = data.orders[0];
    lines.push(first?.order_no ?? "", String(data.pagination.total));
  } else if (res.status === 404) {
    const body: ErrorEnvelope = await res.json();
    lines.push(body.error.code);
  }
  const created = await api.customers.create.$post({
    json: { company_name: "Sharma Traders", mobile_number: "9820000001", gst_treatment: "Unregistered" },
    header: { "Idempotency-Key": crypto.randomUUID() },
  });
  if (created.status === 201) lines.push(String((await created.json()).data.id));
  // @ts-expect-error: no such endpoint
  await api.invoices.$get();
  // @ts-expect-error: phone_number is required
  await api.orders.$get({ query: {} });
  // @ts-expect-error: gst_treatment is Registered or Unregistered
  await api.customers.create.$post({ json: { gst_treatment: "Maybe" } });
  const { key } = await exchangeEnrollmentCode(BASE, "ABCD-EFGH-JKMN-PQRS", navigator.userAgent);
  lines.push(key.secret);
  return lines;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2022", "DOM"],
    types: [],
    strict: true,
    noEmit: true,
  },
  include: ["src"],
};

let app: string;
let packed: { files: { path: string }[]; filename: string };
beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), "olk-client-app-"));
  // npm pack runs the package's prepare script: the tarball holds what its sources build now.
  const pack = await runIn(CLIENT, "npm", ["pack", "--json", "--pack-destination", app]);
  expect(pack.code, pack.out).toBe(0);
  packed = (JSON.parse(pack.out.slice(pack.out.indexOf("[\n"))) as (typeof packed)[])[0]!;
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "field-app", private: true, type: "module" })}\n`);
  writeFileSync(join(app, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  mkdirSync(join(app, "src"));
  writeFileSync(join(app, "src/app.ts"), APP);
  const install = await runIn(app, "npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    `./${packed.filename}`,
    `typescript@${TYPESCRIPT}`,
  ]);
  expect(install.code, install.out).toBe(0);
}, 300_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe("the client package, installed from its tarball", () => {
  it("holds built JavaScript, declarations and its package.json, and depends on hono alone", () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files.filter((f) => !/^dist\/[\w.]+\.(js|d\.ts)$/.test(f))).toEqual(["package.json"]);
    expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/api.gen.d.ts"]));
    const manifest = JSON.parse(readFileSync(join(app, "node_modules/@order-lookup/client/package.json"), "utf8"));
    expect(manifest.dependencies).toEqual({ hono: expect.any(String) });
    expect(manifest.peerDependencies).toBeUndefined();
  });

  it("type-checks an app under strict, lib ES2022 and DOM, with no other types", async () => {
    const tsc = await runIn(app, process.execPath, [
      "node_modules/typescript/bin/tsc",
      "-p",
      ".",
      "--extendedDiagnostics",
    ]);
    expect(tsc.out.split("\n").filter((line) => line.includes("error"))).toEqual([]);
    expect(tsc.code).toBe(0);
    // Figures, not assertions (timings are printed, never asserted): wall-clock, and tsc's own account.
    const total = /^Total time:\s+(\S+)/m.exec(tsc.out)?.[1];
    const files = /^Files:\s+(\d+)/m.exec(tsc.out)?.[1];
    console.log(`client package: the app type-checked in ${tsc.seconds.toFixed(1)} s (tsc: ${total}, ${files} files)`);
  });

  it("loads as an ES module in Node, with every export the documentation names", async () => {
    const script =
      "const m = await import('@order-lookup/client');" +
      "console.log(JSON.stringify(Object.keys(m).sort()));" +
      "const s = new m.MemorySyncStore(); await s.put('customer', 1, { id: 1 }); console.log(JSON.stringify(await s.listIds('customer')));";
    const loaded = await runIn(app, process.execPath, ["--input-type=module", "-e", script]);
    expect(loaded.code, loaded.out).toBe(0);
    expect(loaded.out.trim().split("\n")).toEqual([
      JSON.stringify(
        [
          "EnrollmentError",
          "KeyRotationError",
          "MemorySyncStore",
          "SyncError",
          "applyChange",
          "createClient",
          "exchangeEnrollmentCode",
          "keyRotation",
          "sync",
        ].sort(),
      ),
      "[1]",
    ]);
  });
});
