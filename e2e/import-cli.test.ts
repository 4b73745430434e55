// `npm run db:import -- FILE` end to end on its own state folder: .json and .jsonl files, a bad file
// (exit 1, one error line, nothing changed), and the lookup cache purged after an import. The first
// import is the real command, a process of its own; the others run its code (scripts/import/run.ts)
// in this process. One local platform (the same D1 and KV), open for the whole file, serves those
// imports and the reads of what each import left behind.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCommand } from "../scripts/import/run.ts";
import type { Platform } from "../scripts/lib/local.ts";
import { run } from "../scripts/lib/processes.ts";
import { customerRecord, oneAgentRecords, orderRecord } from "../test/fixtures/dataset.ts";
import { pipe } from "./helpers/pipe.ts";
import { migratedStateDir } from "./helpers/state.ts";
import { IMPORTED_TABLES as TABLES } from "../test/fixtures/import-tables.ts";

const dir = migratedStateDir("olk-import-");
let platform: Platform;

beforeAll(async () => {
  // scripts/lib/local.ts reads PERSIST_DIR when it loads.
  process.env.PERSIST_DIR = dir;
  const { openPlatform } = await import("../scripts/lib/local.ts");
  platform = await openPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function withPlatform<T>(fn: (env: Platform["env"]) => Promise<T>): Promise<T> {
  return fn(platform.env);
}

async function snapshot(env: Platform["env"]): Promise<Record<string, unknown[]>> {
  const results = await env.DB.batch(TABLES.map((t) => env.DB.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`)));
  return Object.fromEntries(TABLES.map((t, i) => [t, results[i]!.results]));
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The command's lines: its progress lines (on standard error, a plain line at a time without a terminal) apart. */
function outcome(code: number, stdout: string[], stderr: string[]) {
  return {
    code,
    stdout,
    stderr: stderr.filter((l) => !l.startsWith("import: ")),
    progress: stderr.filter((l) => l.startsWith("import: ")),
  };
}

/** `npm run db:import -- PATH`, a process of its own, exactly as the contract writes it. */
async function dbImportProcess(path: string) {
  const result = await run("npm", ["run", "db:import", "--", path], { PERSIST_DIR: dir, CI: "true" });
  // npm's own notices aside, what the command printed.
  const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("npm warn"));
  return outcome(result.code, lines(result.stdout), lines(result.stderr));
}

/** The same command in this process, on the file's platform. */
async function dbImport(path: string) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const progress = pipe();
  const code = await importCommand([path], {
    out: { log: (line) => stdout.push(line), error: (line) => stderr.push(line) },
    progress: progress.stream,
    openPlatform: async () => ({ env: platform.env, dispose: async () => {} }),
  });
  return outcome(code, stdout, [...stderr, ...progress.lines]);
}

const customer = (id: number, phone: string) =>
  customerRecord(id, {
    email: "",
    contactperson_number: phone,
    gstin: null,
    salesagent_id: 1,
    area_id: 1,
    postalcode_id: 1,
  });

const order = (id: number, customerId: number) =>
  orderRecord(id, customerId, {
    item_total_amount: 100.5,
    billable_amount: 100.5,
    items: [{ product_id: 1, quantity: 2, price: 50.25 }],
  });

const DATASET = {
  ...oneAgentRecords(),
  customers: [customer(1, "+91 98200 00001"), customer(2, "9820000002")],
  orders: [order(1, 1)],
};

const jsonl = (records: { type: string }[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("npm run db:import", () => {
  it("imports a .json file, prints a summary and purges the lookup cache", async () => {
    await withPlatform((env) => env.LOOKUP_CACHE.put("pincode:400069", '{"data":[]}'));
    const result = await dbImportProcess(file("data.json", JSON.stringify(DATASET, null, 2)));
    expect(result.stderr).toEqual([]);
    // A small file: only the last progress line, with the records by type.
    expect(result.progress).toEqual([
      expect.stringMatching(
        /^import: 1 state, 1 city, 1 area, 1 postal_code, 1 sales_agent, 1 delivery_agent, 1 product, 2 customer, 1 order, 100%, [\d,]+ records\/s, \d+\.\d s$/,
      ),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout.at(-1)).toMatch(
      /^Imported .*data\.json in \d+\.\d s: 1 states, 1 cities, 1 areas, 1 postal codes, 1 sales agents, 1 sales agent postal codes, 1 delivery agents, 1 products, 2 customers, 2 customer addresses, 1 orders, 1 order items, 1 order statuses, 0 invoices; \d+ rows written\. Lookup cache purged\.$/,
    );
    await withPlatform(async (env) => {
      expect((await env.LOOKUP_CACHE.list()).keys).toEqual([]);
      const db = await snapshot(env);
      expect(db.customers!.map((c: any) => [c.id, c.contactperson_number, c.phone_key])).toEqual([
        [1, "+91 98200 00001", "9820000001"],
        [2, "9820000002", "9820000002"],
      ]);
      // The order's row is its record without the lists.
      const { items: _items, statuses: _statuses, invoices: _invoices, ...row } = order(1, 1);
      expect(db.orders).toEqual([row]);
    });
  });

  it("says that nothing changed when the same file is imported again, with its progress line once", async () => {
    const before = await withPlatform(snapshot);
    const again = await dbImport(join(dir, "data.json"));
    expect(again.code).toBe(0);
    expect(again.stderr).toEqual([]);
    expect(again.progress).toEqual([expect.stringMatching(/^import: 1 state, .*, 1 order, 100%, /)]);
    expect(again.stdout.at(-1)).toMatch(
      /^Imported .*data\.json in \d+\.\d s: nothing changed: the database already holds the file's 1 states, 1 cities, .*, 0 invoices as given\. Lookup cache purged\.$/,
    );
    await withPlatform(async (env) => expect(await snapshot(env)).toEqual(before));
  });

  it("imports a .jsonl file of orders for customers already in the database", async () => {
    const result = await dbImport(
      file(
        "more.jsonl",
        jsonl([
          { type: "order", ...order(2, 2) },
          { type: "order", ...order(3, 1) },
        ]),
      ),
    );
    expect(result.stderr).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout.at(-1)).toMatch(
      / 2 orders, 2 order items, 2 order statuses, 0 invoices; \d+ rows written\. Lookup cache purged\.$/,
    );
    await withPlatform(async (env) => {
      const db = await snapshot(env);
      expect(db.orders!.map((o: any) => [o.id, o.customer_id])).toEqual([
        [1, 1],
        [2, 2],
        [3, 1],
      ]);
    });
  });

  it("rejects a bad .jsonl file with one line naming the record, line and field, and changes nothing", async () => {
    const before = await withPlatform(async (env) => {
      await env.LOOKUP_CACHE.put("areas", "[]");
      return snapshot(env);
    });
    const bad = jsonl([
      { type: "customer", ...customer(3, "9820000003") },
      { type: "order", ...order(4, 3) },
      { type: "order", ...order(5, 99) },
    ]);
    const result = await dbImport(file("bad.jsonl", bad));
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      "Import failed, nothing changed: order 5 at line 3, field customer_id: no customer 99 earlier in the file or in the database",
    ]);
    expect(result.stdout.join("\n")).not.toMatch(/Imported/);
    expect(result.progress).toEqual([]);
    await withPlatform(async (env) => {
      expect(await snapshot(env)).toEqual(before);
      // A failed import changed nothing, so the cache is left alone.
      expect(await env.LOOKUP_CACHE.get("areas")).toBe("[]");
    });
  });

  it("rejects a truncated .json file, though its first records are valid, changing nothing", async () => {
    const before = await withPlatform(snapshot);
    const broken = await dbImport(file("broken.json", '{"states": [{"id": 9, "code": "GA", "name": "Goa"},'));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toHaveLength(1);
    expect(broken.stderr[0]).toMatch(/^Import failed, nothing changed: file: not valid JSON/);
    await withPlatform(async (env) => expect(await snapshot(env)).toEqual(before));
  });

  it("runs one of two imports started together; the other exits 1 at once with one line, changing nothing", async () => {
    const before = await withPlatform(snapshot);
    const first = file("first.json", JSON.stringify({ customers: [customer(21, "9820000021")] }));
    const second = file("second.json", JSON.stringify({ customers: [customer(22, "9820000022")] }));
    const [a, b] = await Promise.all([dbImport(first), dbImport(second)]);
    const [won, refused, wonId] = a.code === 0 ? [a, b, 21] : [b, a, 22];
    expect(won.code).toBe(0);
    expect(won.stdout.at(-1)).toMatch(
      / 1 customers, 1 customer addresses, .*; \d+ rows written\. Lookup cache purged\.$/,
    );
    expect(refused).toEqual({
      code: 1,
      stdout: [expect.stringMatching(/^Importing .*(first|second)\.json into /)],
      stderr: [
        expect.stringMatching(
          /^Import refused, nothing changed: another import has been running since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; imports run one at a time \(try again when it ends; one that stopped without ending lets the next start 2 minutes after its last heartbeat\)$/,
        ),
      ],
      progress: [],
    });
    await withPlatform(async (env) => {
      const after = await snapshot(env);
      // The winner's customer only: none of the refused file's rows, and the rest as it was.
      expect(after.customers!.map((c: any) => c.id)).toEqual([...before.customers!.map((c: any) => c.id), wonId]);
      expect({ ...after, customers: [], customer_addresses: [] }).toEqual({
        ...before,
        customers: [],
        customer_addresses: [],
      });
      // The lease ended with the import: the next one runs.
      expect((await env.DB.prepare("SELECT * FROM leases").all()).results).toEqual([]);
    });
    expect((await dbImport(a.code === 0 ? second : first)).code).toBe(0);
  });

  it("rejects a .json file with a phone number like one in the database, naming both, changing nothing", async () => {
    const before = await withPlatform(snapshot);
    const duplicate = { customers: [customer(7, "9820000007"), customer(8, "098200 00002")] };
    const dup = await dbImport(file("dup.json", JSON.stringify(duplicate)));
    expect(dup.code).toBe(1);
    expect(dup.stderr).toEqual([
      "Import failed, nothing changed: customer 8 at customers[1], field contactperson_number: normalizes to 9820000002, as the number of customer 2 does in the database",
    ]);
    await withPlatform(async (env) => expect(await snapshot(env)).toEqual(before));
  });
});
