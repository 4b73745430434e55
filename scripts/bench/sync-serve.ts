// `npm run bench -- sync`: what GET /sync costs (docs/performance.md, "Sync") on one agent's book (./sync-book.ts)
// served by `npm run dev`: first syncs, a delta of 50 creates, and a caught-up sync beside the one-query floor.
import { createBody } from "../../test/fixtures/create-body.ts";
import { firstSyncRounds, syncPage, syncPath, wholeSync } from "./sync.ts";
import { measure, median, type LoadOptions } from "./cannon.ts";
import { auth, makeKey, type PerfRun, type Server } from "./harness.ts";
import { CUSTOMERS, dataset, openBookState, ORDERS } from "./sync-book.ts";

const AGENT = 1;
const LIMIT = 1000;
const CREATES = 50;
const LOAD: LoadOptions = { connections: 16, seconds: 5, warmupSeconds: 2 };

/** The book imported into a fresh state of the run and served by `npm run dev`, with a key. */
export async function serveBook(perf: PerfRun) {
  const state = `${perf.dir}/state`;
  perf.step(`importing one book: ${CUSTOMERS} customers, ${ORDERS} orders ...`);
  const { platform, importDataset } = await openBookState(state);
  await importDataset(platform.env.DB, dataset("Mumbai"));
  await platform.dispose();
  const key = await makeKey(state, "bench-sync");
  return { state, key, api: await perf.serveApi("api-sync", "dev", state) };
}

/** N first syncs at limit 1000 (after a warm-up one when N is over 1): the figure and the last sync. */
export async function firstSyncs({ api, key }: { api: Server; key: string }, rounds: number) {
  // With rounds, a warm-up sync first; the CPU seconds move with the machine's load much less than the seconds.
  if (rounds > 1) await wholeSync(api.url, key, AGENT, undefined, LIMIT);
  const firsts = await firstSyncRounds(api, key, AGENT, rounds, LIMIT);
  const first = firsts.rounds[0]!;
  const list = (xs: number[]) =>
    `${median(xs).toFixed(2)}${xs.length > 1 ? ` (${xs.map((x) => x.toFixed(2)).join(", ")})` : ""}`;
  const cpu = firsts.cpuSeconds.filter((c): c is number => c !== null);
  const line =
    `first sync (limit ${LIMIT}): ${first.pages} answers, ${first.records} records, ${first.rows} rows read ` +
    `(${(first.rows / first.records).toFixed(2)} a record, at most ${first.maxRows} an answer), ${first.bytes} bytes; ` +
    `seconds ${list(firsts.rounds.map((r) => r.seconds))}; CPU seconds of the API's processes ${cpu.length ? list(cpu) : "n/a"}`;
  return { line, first };
}

export async function syncServe(perf: PerfRun, rounds: number): Promise<string[]> {
  const lines: string[] = [];
  const say = (line: string) => {
    perf.step(line);
    lines.push(`- ${line}`);
  };
  const book = await serveBook(perf);
  const { state, key, api } = book;
  const { line, first } = await firstSyncs(book, rounds);
  say(line);

  for (let i = 0; i < CREATES; i++) {
    const mobile = `8${String(i).padStart(9, "0")}`;
    const body = createBody(mobile, {
      company_name: `Bench ${i}`,
      contactpersons_name: "Bench",
      address: "1 Bench Road",
    });
    const res = await fetch(`${api.url}/api/customers/create`, {
      method: "POST",
      headers: { ...auth(key), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST /api/customers/create answered ${res.status}: ${await res.text()}`);
  }
  const delta = await syncPage(api.url, key, AGENT, first.cursor, LIMIT);
  say(`delta of ${CREATES} changes: ${delta.changes.length} records, ${delta.rows} rows read, ${delta.bytes} bytes`);

  const caughtUp = await syncPage(api.url, key, AGENT, delta.nextCursor, LIMIT);
  say(`caught up: ${caughtUp.rows} rows read, ETag ${caughtUp.etag}`);
  const { startFloors } = await import("./servers.ts");
  const floors = await startFloors(perf, state);
  const floor = await measure(
    { label: "floor: one query", url: `${floors.url}/select1`, cpuSeconds: floors.cpuSeconds },
    LOAD,
  );
  const sync = await measure(
    {
      label: "GET /sync caught up",
      url: `${api.url}${syncPath(AGENT, delta.nextCursor, LIMIT)}`,
      headers: { Authorization: `Bearer ${key}` },
      cpuSeconds: api.cpuSeconds,
    },
    LOAD,
  );
  say(
    `caught-up sync: ${Math.round(sync.rps)} req/s (p50 ${sync.p50} ms) against the one-query floor's ${Math.round(floor.rps)} ` +
      `(ratio ${(sync.rps / floor.rps).toFixed(2)}); failures ${sync.failures}`,
  );
  return lines;
}
