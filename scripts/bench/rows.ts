// What each endpoint reads from D1, from its Server-Timing d1rows (the sum of D1's own rows_read
// over the request's statements): a first page and the page that its next_page_url leads to; and
// what walking every customer costs by next_page_url (its cursor) against building page=N URLs.

export interface RowsRead {
  label: string;
  path: string;
  /** Rows read by the request itself. */
  first: number;
  /** Rows read by the page its next_page_url leads to (null without one, or for a lookup). */
  next: number | null;
}

export interface WalkCost {
  customers: number;
  pages: number;
  /** Rows read in all, following next_page_url from the first page. */
  byCursor: number;
  /** Rows read in all, asking page=1..N. */
  byPage: number;
  /** The most that one page read, each way. */
  maxCursorPage: number;
  maxPageN: number;
}

interface Answer {
  rows: number;
  body: { data?: { pagination?: { next_page_url: string | null } } & Record<string, unknown> };
}

async function get(url: string, key: string): Promise<Answer> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  // 404: what an unknown phone number answers, with its own rows read.
  if (res.status !== 200 && res.status !== 404) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  const rows = /d1rows;desc="(\d+) rows read"/.exec(res.headers.get("Server-Timing") ?? "")?.[1];
  if (rows === undefined) throw new Error(`GET ${url} has no d1rows in Server-Timing`);
  return { rows: Number(rows), body: (await res.json()) as Answer["body"] };
}

/** Each endpoint's rows read, and its next page's (by the cursor of next_page_url). */
export async function measureRowsRead(baseUrl: string, key: string, endpoints: { label: string; path: string }[]): Promise<RowsRead[]> {
  const out: RowsRead[] = [];
  for (const { label, path } of endpoints) {
    const first = await get(`${baseUrl}${path}`, key);
    const nextUrl = first.body.data?.pagination?.next_page_url ?? null;
    out.push({ label, path, first: first.rows, next: nextUrl ? (await get(nextUrl, key)).rows : null });
  }
  return out;
}

/** Every customer, `count` a page, by next_page_url and by page=N. */
export async function measureWalk(baseUrl: string, key: string, count: number): Promise<WalkCost> {
  let byCursor = 0;
  let maxCursorPage = 0;
  let pages = 0;
  let customers = 0;
  for (let url: string | null = `${baseUrl}/api/customers?count=${count}`; url !== null; pages++) {
    const answer = await get(url, key);
    byCursor += answer.rows;
    maxCursorPage = Math.max(maxCursorPage, answer.rows);
    customers += (answer.body.data?.customers as unknown[] | undefined)?.length ?? 0;
    url = answer.body.data?.pagination?.next_page_url ?? null;
  }
  let byPage = 0;
  let maxPageN = 0;
  for (let page = 1; page <= pages; page++) {
    const answer = await get(`${baseUrl}/api/customers?count=${count}&page=${page}`, key);
    byPage += answer.rows;
    maxPageN = Math.max(maxPageN, answer.rows);
  }
  return { customers, pages, byCursor, byPage, maxCursorPage, maxPageN };
}
