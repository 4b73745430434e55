// GET /sync as `npm run bench -- --scale` measures it (docs/specification.md section 8): a sales
// agent's whole first sync (seconds, D1 rows read per record), and the cursors that a page of a
// first sync and a caught-up sync are loaded with. Every answer's rows read come from Server-Timing.

export interface SyncPage {
  status: number;
  rows: number;
  bytes: number;
  changes: { type: string; id: number; op: string }[];
  nextCursor: string;
  hasMore: boolean;
}

export const syncPath = (agent: number, cursor?: string, limit = 200) =>
  `/api/sync?salesagent_id=${agent}&limit=${limit}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;

async function page(baseUrl: string, key: string, path: string): Promise<SyncPage> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  const rows = Number(/d1rows;desc="(\d+) rows read"/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? NaN);
  if (res.status !== 200)
    return { status: res.status, rows, bytes: text.length, changes: [], nextCursor: "", hasMore: false };
  const { data } = JSON.parse(text) as {
    data: { changes: SyncPage["changes"]; next_cursor: string; has_more: boolean };
  };
  return {
    status: res.status,
    rows,
    bytes: Buffer.byteLength(text),
    changes: data.changes,
    nextCursor: data.next_cursor,
    hasMore: data.has_more,
  };
}

/** False when the server has no GET /sync (an unknown path is a 404 there). */
export async function syncPresent(baseUrl: string, key: string, agent: number): Promise<boolean> {
  const first = await page(baseUrl, key, syncPath(agent, undefined, 1));
  if (first.status === 404) return false;
  if (first.status !== 200) throw new Error(`GET ${syncPath(agent, undefined, 1)} answered ${first.status}`);
  return true;
}

export interface WholeSync {
  seconds: number;
  pages: number;
  records: number;
  rows: number;
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
  let bytes = 0;
  let firstPage: WholeSync["firstPage"] | undefined;
  let at = cursor;
  for (;;) {
    const answer = await page(baseUrl, key, syncPath(agent, at, limit));
    if (answer.status !== 200) throw new Error(`GET ${syncPath(agent, at, limit)} answered ${answer.status}`);
    pages++;
    records += answer.changes.length;
    rows += answer.rows;
    bytes += answer.bytes;
    firstPage ??= { rows: answer.rows, bytes: answer.bytes, records: answer.changes.length, cursor: answer.nextCursor };
    at = answer.nextCursor;
    if (!answer.hasMore) break;
  }
  return {
    seconds: (performance.now() - started) / 1000,
    pages,
    records,
    rows,
    bytes,
    firstPage: firstPage!,
    cursor: at!,
  };
}
