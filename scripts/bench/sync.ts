// GET /sync as the benchmarks measure it (docs/specification.md section 8), for `npm run bench -- --scale`
// and `npm run bench -- sync` alike: one answer (rows read, bytes, records, the next cursor), and a
// sales agent's whole sync from a cursor (none: a first sync) until has_more is false (seconds,
// answers, D1 rows read in all and in the largest answer). Every answer's rows read come from Server-Timing.
import { rowsRead } from "./cannon.ts";

export interface SyncPage {
  status: number;
  rows: number;
  bytes: number;
  changes: { type: string; id: number; op: string }[];
  nextCursor: string;
  hasMore: boolean;
  etag: string | null;
}

export const syncPath = (agent: number, cursor?: string, limit = 200) =>
  `/api/sync?salesagent_id=${agent}&limit=${limit}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;

/** One answer, whatever its status (the changes of a 200 only). */
async function answer(baseUrl: string, key: string, path: string): Promise<SyncPage & { text: string }> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  const head = {
    status: res.status,
    rows: rowsRead(res.headers.get("Server-Timing")) ?? NaN,
    bytes: Buffer.byteLength(text),
    etag: res.headers.get("ETag"),
    text,
  };
  if (res.status !== 200) return { ...head, changes: [], nextCursor: "", hasMore: false };
  const { data } = JSON.parse(text) as {
    data: { changes: SyncPage["changes"]; next_cursor: string; has_more: boolean };
  };
  return { ...head, changes: data.changes, nextCursor: data.next_cursor, hasMore: data.has_more };
}

/** One page of `agent`'s sync from `cursor` (none: the first); throws on any answer but 200. */
export async function syncPage(
  baseUrl: string,
  key: string,
  agent: number,
  cursor?: string,
  limit = 200,
): Promise<SyncPage> {
  const path = syncPath(agent, cursor, limit);
  const { text, ...page } = await answer(baseUrl, key, path);
  if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${text}`);
  return page;
}

/** False when the server has no GET /sync (an unknown path is a 404 there). */
export async function syncPresent(baseUrl: string, key: string, agent: number): Promise<boolean> {
  const path = syncPath(agent, undefined, 1);
  const first = await answer(baseUrl, key, path);
  if (first.status === 404) return false;
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}`);
  return true;
}

export interface WholeSync {
  seconds: number;
  pages: number;
  records: number;
  rows: number;
  /** The most rows that one answer read. */
  maxRows: number;
  bytes: number;
  /** The first page of `limit` records: its rows read and bytes, and the cursor it answered. */
  firstPage: { rows: number; bytes: number; records: number; cursor: string };
  /** The cursor of the last page: a caught-up sync sends it. */
  cursor: string;
}

/** Follows the cursors from `cursor` (none: a first sync) until has_more is false. */
export async function wholeSync(
  baseUrl: string,
  key: string,
  agent: number,
  cursor?: string,
  limit = 200,
): Promise<WholeSync> {
  const started = performance.now();
  let pages = 0;
  let records = 0;
  let rows = 0;
  let maxRows = 0;
  let bytes = 0;
  let firstPage: WholeSync["firstPage"] | undefined;
  let at = cursor;
  for (;;) {
    const page = await syncPage(baseUrl, key, agent, at, limit);
    pages++;
    records += page.changes.length;
    rows += page.rows;
    maxRows = Math.max(maxRows, page.rows);
    bytes += page.bytes;
    firstPage ??= { rows: page.rows, bytes: page.bytes, records: page.changes.length, cursor: page.nextCursor };
    at = page.nextCursor;
    if (!page.hasMore) break;
  }
  return {
    seconds: (performance.now() - started) / 1000,
    pages,
    records,
    rows,
    maxRows,
    bytes,
    firstPage: firstPage!,
    cursor: at!,
  };
}

export interface FirstSyncRounds {
  /** Each round's whole first sync, in the order run. */
  rounds: WholeSync[];
  /** Each round's CPU seconds of the API's processes (null off Linux). */
  cpuSeconds: (number | null)[];
}

/**
 * `rounds` first syncs of the same book one after the other (each from no cursor, so each reads the
 * whole book), with the serving processes' CPU time of each: the wall seconds move with the machine's
 * load, the CPU seconds much less.
 */
export async function firstSyncRounds(
  server: { url: string; cpuSeconds: () => number | null },
  key: string,
  agent: number,
  rounds: number,
  limit = 1000,
): Promise<FirstSyncRounds> {
  const out: FirstSyncRounds = { rounds: [], cpuSeconds: [] };
  for (let i = 0; i < rounds; i++) {
    const before = server.cpuSeconds();
    out.rounds.push(await wholeSync(server.url, key, agent, undefined, limit));
    const after = server.cpuSeconds();
    out.cpuSeconds.push(before === null || after === null ? null : after - before);
  }
  return out;
}
