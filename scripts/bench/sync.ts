// GET /sync as the sync and scale suites measure it (docs/specification.md section 8): one answer, and an agent's
// whole sync from a cursor (none: a first sync) until has_more is false. Rows read come from Server-Timing.
import { rowsRead } from "./cannon.ts";
import { auth } from "./harness.ts";

export interface SyncPage {
  rows: number;
  bytes: number;
  changes: { type: string; id: number; op: string }[];
  nextCursor: string;
  hasMore: boolean;
  etag: string | null;
}

export const syncPath = (agent: number, cursor?: string, limit = 200) =>
  `/api/sync?salesagent_id=${agent}&limit=${limit}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;

export async function syncPage(baseUrl: string, key: string, agent: number, cursor?: string, limit = 200) {
  const path = syncPath(agent, cursor, limit);
  const res = await fetch(`${baseUrl}${path}`, { headers: auth(key) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text}`);
  const { data } = JSON.parse(text) as {
    data: { changes: SyncPage["changes"]; next_cursor: string; has_more: boolean };
  };
  return {
    rows: rowsRead(res.headers.get("Server-Timing")) ?? NaN,
    bytes: Buffer.byteLength(text),
    etag: res.headers.get("ETag"),
    changes: data.changes,
    nextCursor: data.next_cursor,
    hasMore: data.has_more,
  } satisfies SyncPage;
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
  let page: SyncPage;
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
