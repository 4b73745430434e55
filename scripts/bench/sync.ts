// `npm run bench -- sync` and `sync-import` (docs/performance.md, "Sync"), on one agent's book (./sync-book.ts),
// and GET /sync as they and the scale suite measure it (docs/specification.md section 8): one answer, and an
// agent's whole sync from a cursor (none: a first sync) until has_more is false, rows read from Server-Timing.
import { createBody } from "../../test/fixtures/create-body.ts";
import type { Dataset } from "../../src/import/importer.ts";
import { Meter, meterD1 } from "../../src/platform/lib/meter.ts";
import { tempFolder } from "../lib/temp-folder.ts";
import { median, rowsRead } from "./cannon.ts";
import { auth, makeKey, type PerfRun, type Server } from "./harness.ts";
import { CUSTOMERS, dataset, IN_CITY, openBookState, ORDERS } from "./sync-book.ts";

export const syncPath = (agent: number, cursor?: string, limit = 200) =>
  `/api/sync?salesagent_id=${agent}&limit=${limit}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;

export async function syncPage(baseUrl: string, key: string, agent: number, cursor?: string, limit = 200) {
  const path = syncPath(agent, cursor, limit);
  const res = await fetch(`${baseUrl}${path}`, { headers: auth(key) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text}`);
  const { data } = JSON.parse(text) as {
    data: { changes: { type: string; id: number; op: string }[]; next_cursor: string; has_more: boolean };
  };
  return {
    rows: rowsRead(res.headers.get("Server-Timing")) ?? NaN,
    bytes: Buffer.byteLength(text),
    etag: res.headers.get("ETag"),
    changes: data.changes,
    nextCursor: data.next_cursor,
    hasMore: data.has_more,
  };
}

export interface WholeSync {
  seconds: number;
  pages: number;
  records: number;
  rows: number;
  /** The most rows that one answer read. */
  maxRows: number;
  bytes: number;
  firstPage: { rows: number; bytes: number; records: number };
  /** The cursor of the last page: a caught-up sync sends it. */
  cursor: string;
}

export async function wholeSync(baseUrl: string, key: string, agent: number, cursor?: string, limit = 200) {
  const started = performance.now();
  const sync = { pages: 0, records: 0, rows: 0, maxRows: 0, bytes: 0 };
  let firstPage: WholeSync["firstPage"] | undefined;
  let page: Awaited<ReturnType<typeof syncPage>>;
  do {
    page = await syncPage(baseUrl, key, agent, cursor, limit);
    sync.pages++;
    sync.records += page.changes.length;
    sync.rows += page.rows;
    sync.maxRows = Math.max(sync.maxRows, page.rows);
    sync.bytes += page.bytes;
    firstPage ??= { rows: page.rows, bytes: page.bytes, records: page.changes.length };
    cursor = page.nextCursor;
  } while (page.hasMore);
  return { ...sync, seconds: (performance.now() - started) / 1000, firstPage, cursor } satisfies WholeSync;
}

/** First syncs one after the other, each with the serving processes' CPU seconds (null off Linux). */
export async function firstSyncRounds(
  server: { url: string; cpuSeconds: () => number | null },
  key: string,
  agent: number,
  rounds: number,
  limit: number,
) {
  const out = { rounds: [] as WholeSync[], cpuSeconds: [] as (number | null)[] };
  for (let i = 0; i < rounds; i++) {
    const before = server.cpuSeconds();
    out.rounds.push(await wholeSync(server.url, key, agent, undefined, limit));
    const after = server.cpuSeconds();
    out.cpuSeconds.push(before === null || after === null ? null : after - before);
  }
  return out;
}

const AGENT = 1;
const LIMIT = 1000;
const CREATES = 50;

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
  const measure = perf.runner({ connections: 16, seconds: 5, warmupSeconds: 2 });
  const floor = await measure("floor: one query", floors, "/select1");
  const sync = await measure("GET /sync caught up", api, syncPath(AGENT, delta.nextCursor, LIMIT), auth(key));
  say(
    `caught-up sync: ${Math.round(sync.rps)} req/s (p50 ${sync.p50} ms) against the one-query floor's ${Math.round(floor.rps)} ` +
      `(ratio ${(sync.rps / floor.rps).toFixed(2)}); failures ${sync.failures}`,
  );
  return lines;
}

/** What imports cost the change log: the book, the same file again, 1% of the orders changed, a city renamed. */
export async function syncImport(): Promise<string[]> {
  const lines: string[] = [];
  const state = tempFolder("sync-import");
  const { platform, importDataset } = await openBookState(state.path);
  const db = platform.env.DB;
  const logged = async () =>
    (await db.prepare("SELECT count(*) AS n, coalesce(max(seq), 0) AS top FROM sync_changes").first<{
      n: number;
      top: number;
    }>())!;
  const step = async (name: string, data: Dataset) => {
    const before = await logged();
    const meter = new Meter();
    const started = performance.now();
    const summary = await importDataset(meterD1(db, meter), data);
    const seconds = (performance.now() - started) / 1000;
    const { n } = (await db
      .prepare("SELECT count(*) AS n FROM sync_changes WHERE seq > ?1")
      .bind(before.top)
      .first<{ n: number }>())!;
    lines.push(`| ${name} | ${summary.rowsWritten} | ${n} | ${meter.d1RowsRead} | ${seconds.toFixed(2)} |`);
  };
  try {
    lines.push(
      `One book: ${CUSTOMERS} customers, ${ORDERS} orders (D1's rows_written; local D1 through wrangler's proxy)`,
      "",
      "| import | rows written | log entries written | rows read | seconds |",
      "|---|---|---|---|---|",
    );
    const file = dataset("Mumbai");
    await step("import into an empty database", file);
    await step("the same file again", file);
    const onePercent = dataset("Mumbai");
    for (let i = 0; i < ORDERS; i += 100) onePercent.orders![i]!.billable_amount = 99;
    await step("1% of the orders changed (150)", onePercent);
    const renamed = dataset("Bombay");
    for (let i = 0; i < ORDERS; i += 100) renamed.orders![i]!.billable_amount = 99;
    await step(`the city renamed (shown by ${IN_CITY + IN_CITY * 9} records)`, renamed);
  } finally {
    await platform.dispose();
    state.remove();
  }
  return lines;
}
