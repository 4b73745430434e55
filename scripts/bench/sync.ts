// `npm run bench -- sync` (docs/performance.md, "Sync") on one agent's book, and GET /sync as it, the api and the
// scale suites measure it (docs/specification.md section 8): an agent's whole sync from a cursor (none: a first
// sync) until has_more is false, rows read from Server-Timing.
import type { Dataset, OrderRecord } from "../../src/import/importer.ts";
import { createBody } from "../../test/fixtures/create-body.ts";
import { customerRecord, dataset as fixture, oneAgentRecords, orderRecord } from "../../test/fixtures/dataset.ts";
import { auth, createCustomers, getJson, makeKey, type PerfRun, rounds } from "./harness.ts";

const CUSTOMERS = 1500;
const ORDERS = 15_000;
/** Customers in the first city; the others are in a second one. */
const IN_CITY = 1000;
const AGENT = 1;
const LIMIT = 1000;
const CREATES = 50;

/** The book: 1,500 customers and 15,000 orders (2 lines and 2 statuses each), 1,000 customers in one city. */
function book(): Dataset {
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => {
    const id = i + 1;
    return customerRecord(id, {
      email: null,
      contactperson_number: `9${String(id).padStart(9, "0")}`,
      gstin: null,
      area_id: id <= IN_CITY ? 1 : 2,
      postalcode_id: 1,
    });
  });
  // Customer c's orders: 9 each for the city's customers (9,000), 12 each for the others (6,000).
  const orders: OrderRecord[] = Array.from({ length: ORDERS }, (_, i) => {
    const customerId = i < IN_CITY * 9 ? Math.floor(i / 9) + 1 : IN_CITY + Math.floor((i - IN_CITY * 9) / 12) + 1;
    return orderRecord(i + 1, customerId, {
      deliveryagent_id: 1,
      items: [
        { product_id: 1, quantity: 1, price: 60 },
        { product_id: 2, quantity: 2, price: 20 },
      ],
      statuses: [
        { name: "Placed", at: "2026-03-14T09:30:00Z" },
        { name: "Delivered", at: "2026-03-15T09:30:00Z" },
      ],
    });
  });
  const records = oneAgentRecords();
  return {
    ...records,
    cities: [
      { id: 1, name: "Mumbai", code: "MUM", state_id: 1 },
      { id: 2, name: "Pune", code: "PNQ", state_id: 1 },
    ],
    areas: [...records.areas, { id: 2, name: "Kothrud", area_code: "KO", city_id: 2 }],
    products: fixture.products.slice(0, 2),
    customers,
    orders,
  } as Dataset;
}

/**
 * A dataset imported by the importer itself into a fresh state folder of the run's own (never the operator's),
 * migrated: its local platform, for the caller to dispose. PERSIST_DIR is read by scripts/lib/local.ts when it
 * loads: it must not be loaded before.
 */
export async function openBook(persistDir: string, data: Dataset) {
  process.env.PERSIST_DIR = persistDir;
  const { openMigratedPlatform } = await import("../lib/migrate.ts");
  const { importDataset } = await import("../../src/import/importer.ts");
  const platform = await openMigratedPlatform({});
  await importDataset(platform.env.DB, data);
  return platform;
}

export const syncPath = (agent: number, cursor?: string, limit = 200) =>
  `/api/sync?salesagent_id=${agent}&limit=${limit}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;

export async function wholeSync(baseUrl: string, key: string, agent: number, cursor?: string, limit = 200) {
  const started = performance.now();
  const sync = { pages: 0, records: 0, rows: 0, maxRows: 0, bytes: 0, firstPage: { rows: 0, bytes: 0, records: 0 } };
  for (let more = true; more; sync.pages++) {
    const { body, rows, bytes } = await getJson(`${baseUrl}${syncPath(agent, cursor, limit)}`, key);
    const records: number = body.data.changes.length;
    if (sync.pages === 0) sync.firstPage = { rows, bytes, records };
    sync.records += records;
    sync.rows += rows;
    sync.maxRows = Math.max(sync.maxRows, rows);
    sync.bytes += bytes;
    cursor = body.data.next_cursor as string;
    more = body.data.has_more;
  }
  // The cursor of the last page: a caught-up sync sends it.
  return { ...sync, cursor: cursor!, seconds: (performance.now() - started) / 1000 };
}

/** The book imported into a fresh state of the run and served by `npm run dev`, with a key. */
export async function serveBook(perf: PerfRun) {
  const state = `${perf.dir}/state`;
  perf.step(`importing one book: ${CUSTOMERS} customers, ${ORDERS} orders ...`);
  await (await openBook(state, book())).dispose();
  const key = await makeKey(state, "bench-sync");
  return { state, key, api: await perf.serveApi("api-sync", "dev", state) };
}

/** N first syncs at limit 1000 (after a warm-up one when N is over 1): the figure and the first of them. */
export async function firstSyncs({ api, key }: Awaited<ReturnType<typeof serveBook>>, count: number) {
  // With rounds, a warm-up sync first; the CPU seconds move with the machine's load much less than the seconds.
  if (count > 1) await wholeSync(api.url, key, AGENT, undefined, LIMIT);
  const syncs = [];
  const cpu: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = api.cpuSeconds();
    syncs.push(await wholeSync(api.url, key, AGENT, undefined, LIMIT));
    const after = api.cpuSeconds();
    if (before !== null && after !== null) cpu.push(after - before);
  }
  const first = syncs[0]!;
  const line =
    `first sync (limit ${LIMIT}): ${first.pages} answers, ${first.records} records, ${first.rows} rows read ` +
    `(${(first.rows / first.records).toFixed(2)} a record, at most ${first.maxRows} an answer), ${first.bytes} bytes; ` +
    `seconds ${rounds(syncs.map((r) => r.seconds))}; CPU seconds of the API's processes ${cpu.length ? rounds(cpu) : "n/a"}`;
  return { line, first };
}

export async function syncServe(perf: PerfRun, count: number): Promise<string[]> {
  const lines: string[] = [];
  const say = (line: string) => {
    perf.step(line);
    lines.push(`- ${line}`);
  };
  const served = await serveBook(perf);
  const { state, key, api } = served;
  const { line, first } = await firstSyncs(served, count);
  say(line);

  const bench = { contactpersons_name: "Bench", address: "1 Bench Road" };
  const bodies = Array.from({ length: CREATES }, (_, i) =>
    createBody(`8${String(i).padStart(9, "0")}`, { company_name: `Bench ${i}`, ...bench }),
  );
  await createCustomers(api.url, key, bodies);
  const delta = await getJson(`${api.url}${syncPath(AGENT, first.cursor, LIMIT)}`, key);
  const deltaRecords = delta.body.data.changes.length;
  say(`delta of ${CREATES} changes: ${deltaRecords} records, ${delta.rows} rows read, ${delta.bytes} bytes`);

  const caughtUpPath = syncPath(AGENT, delta.body.data.next_cursor, LIMIT);
  const caughtUp = await getJson(`${api.url}${caughtUpPath}`, key);
  say(`caught up: ${caughtUp.rows} rows read, ETag ${caughtUp.etag}`);
  const floors = await perf.serveFloors(state);
  const measure = perf.runner({ connections: 16, seconds: 5, warmupSeconds: 2 });
  const floor = await measure("floor: one query", floors, "/select1");
  const sync = await measure("GET /sync caught up", api, caughtUpPath, auth(key));
  say(
    `caught-up sync: ${Math.round(sync.rps)} req/s (p50 ${sync.p50} ms) against the one-query floor's ${Math.round(floor.rps)} ` +
      `(ratio ${(sync.rps / floor.rps).toFixed(2)}); failures ${sync.failures}`,
  );
  return lines;
}
