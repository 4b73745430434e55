// npm run bench:sync: what GET /sync costs (docs/performance.md). One agent's book (./sync-book.ts:
// 1,500 customers, 15,000 orders) imported into a fresh local D1 and served by `npm run dev`: the first
// sync's answers, rows read a record and seconds; 50 creates and the delta that brings them (rows read,
// bytes); a caught-up sync (rows read) and its requests per second beside the `select 1` floor of
// `npm run bench`.
import type { CommandLine } from "../lib/cli.ts";
import { measure, type LoadOptions } from "./cannon.ts";
import { makeKey, runPerf } from "./harness.ts";
import { CUSTOMERS, dataset, ORDERS } from "./sync-book.ts";

const LIMIT = 1000;
const CREATES = 50;
const LOAD: LoadOptions = { connections: 16, seconds: 5, warmupSeconds: 2 };

const COMMAND: CommandLine = {
  invocation: "npm run bench:sync",
  usage: "Usage: npm run bench:sync\n  Not a test: prints figures (minutes; serves the API with npm run dev).",
};

const rowsRead = (res: Response) =>
  Number(/d1rows;desc="(\d+) rows read"/.exec(res.headers.get("Server-Timing") ?? "")?.[1]);

runPerf(COMMAND, "bench", async (open) => {
  const perf = open();
  const state = `${perf.dir}/state`;
  perf.step(`importing one book: ${CUSTOMERS} customers, ${ORDERS} orders ...`);
  process.env.PERSIST_DIR = state;
  const { openMigratedPlatform } = await import("../lib/migrated-platform.ts");
  const { importDataset } = await import("../../src/import/importer.ts");
  const platform = await openMigratedPlatform({});
  await importDataset(platform.env.DB, dataset("Mumbai"));
  await platform.dispose();
  const key = await makeKey(state, "bench-sync");
  const api = await perf.serveApi("api-sync", "dev", state);
  const auth = { Authorization: `Bearer ${key}` };
  const get = (cursor?: string) =>
    fetch(
      `${api.url}/api/sync?salesagent_id=1&limit=${LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      { headers: auth },
    );

  let cursor: string | undefined;
  let answers = 0;
  let records = 0;
  let rows = 0;
  let maxRows = 0;
  const started = performance.now();
  for (let more = true; more; answers++) {
    const res = await get(cursor);
    if (res.status !== 200) throw new Error(`GET /sync answered ${res.status}: ${await res.text()}`);
    const { data } = (await res.json()) as { data: { changes: unknown[]; next_cursor: string; has_more: boolean } };
    records += data.changes.length;
    rows += rowsRead(res);
    maxRows = Math.max(maxRows, rowsRead(res));
    cursor = data.next_cursor;
    more = data.has_more;
  }
  const seconds = (performance.now() - started) / 1000;
  perf.step(
    `first sync (limit ${LIMIT}): ${answers} answers, ${records} records, ${rows} rows read ` +
      `(${(rows / records).toFixed(2)} a record, at most ${maxRows} an answer), ${seconds.toFixed(2)} s`,
  );

  for (let i = 0; i < CREATES; i++) {
    const res = await fetch(`${api.url}/api/customers/create`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        company_name: `Bench ${i}`,
        mobile_number: `8${String(i).padStart(9, "0")}`,
        contactpersons_name: "Bench",
        address: "1 Bench Road",
        area_id: 1,
        postalcode_id: 1,
        gst_treatment: "Unregistered",
        salesagent_id: 1,
      }),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  }
  const delta = await get(cursor);
  const deltaText = await delta.text();
  const deltaBody = JSON.parse(deltaText) as { data: { changes: unknown[]; next_cursor: string } };
  perf.step(
    `delta of ${CREATES} changes: ${deltaBody.data.changes.length} records, ${rowsRead(delta)} rows read, ` +
      `${new TextEncoder().encode(deltaText).length} bytes`,
  );
  cursor = deltaBody.data.next_cursor;

  const caughtUp = await get(cursor);
  perf.step(`caught up: ${rowsRead(caughtUp)} rows read, ETag ${caughtUp.headers.get("ETag")}`);
  const { startFloors } = await import("../bench/servers.ts");
  const floors = await startFloors(perf, state);
  const floor = await measure(
    { label: "floor: one query", url: `${floors.url}/select1`, cpuSeconds: floors.cpuSeconds },
    LOAD,
  );
  const sync = await measure(
    {
      label: "GET /sync caught up",
      url: `${api.url}/api/sync?salesagent_id=1&cursor=${encodeURIComponent(cursor)}`,
      headers: auth,
      cpuSeconds: api.cpuSeconds,
    },
    LOAD,
  );
  perf.step(
    `caught-up sync: ${Math.round(sync.rps)} req/s (p50 ${sync.p50} ms) against the one-query floor's ${Math.round(floor.rps)} ` +
      `(ratio ${(sync.rps / floor.rps).toFixed(2)}); failures ${sync.failures}`,
  );
  return 0;
});
