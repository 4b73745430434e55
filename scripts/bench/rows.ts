// What requests read from D1, from Server-Timing d1rows: a first page and the page its next_page_url leads to, and
// walking every customer by next_page_url (its cursor) against building page=N URLs.
import { rowsRead } from "./cannon.ts";
import { auth } from "./harness.ts";

interface Answer {
  rows: number;
  body: { data?: { pagination?: { next_page_url: string | null } } & Record<string, unknown> };
}

async function get(url: string, key: string): Promise<Answer> {
  const res = await fetch(url, { headers: auth(key) });
  // 404: what an unknown phone number answers, with its own rows read.
  if (res.status !== 200 && res.status !== 404)
    throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  const rows = rowsRead(res.headers.get("Server-Timing"));
  if (rows === undefined) throw new Error(`GET ${url} has no d1rows in Server-Timing`);
  return { rows, body: (await res.json()) as Answer["body"] };
}

/** Each endpoint's rows read, and its next page's (null without one). */
export async function measureRowsRead(baseUrl: string, key: string, endpoints: { label: string; path: string }[]) {
  const out: { label: string; first: number; next: number | null }[] = [];
  for (const { label, path } of endpoints) {
    const first = await get(`${baseUrl}${path}`, key);
    const nextUrl = first.body.data?.pagination?.next_page_url ?? null;
    out.push({ label, first: first.rows, next: nextUrl ? (await get(nextUrl, key)).rows : null });
  }
  return out;
}

/**
 * A page's rows read and what it answered: customers, or orders with their lines and invoices (what
 * the page bound counts, statuses left out as in measureOrdersWalk). Pages of two datasets answer
 * different lines, so rows per item is what compares them.
 */
export async function pageCost(baseUrl: string, key: string, path: string): Promise<{ rows: number; items: number }> {
  const answer = await get(`${baseUrl}${path}`, key);
  const customers = (answer.body.data?.customers as unknown[] | undefined) ?? [];
  const orders = (answer.body.data?.orders as { products: unknown[]; invoices: unknown[] }[] | undefined) ?? [];
  const items = customers.length + orders.reduce((n, o) => n + 1 + o.products.length + o.invoices.length, 0);
  return { rows: answer.rows, items };
}

/** Every customer, `count` a page, by next_page_url and by page=N. */
export async function measureWalk(baseUrl: string, key: string, count: number) {
  const walk = { customers: 0, pages: 0, byCursor: 0, byPage: 0, maxCursorPage: 0, maxPageN: 0 };
  for (let url: string | null = `${baseUrl}/api/customers?count=${count}`; url !== null; walk.pages++) {
    const answer = await get(url, key);
    walk.byCursor += answer.rows;
    walk.maxCursorPage = Math.max(walk.maxCursorPage, answer.rows);
    walk.customers += (answer.body.data?.customers as unknown[] | undefined)?.length ?? 0;
    url = answer.body.data?.pagination?.next_page_url ?? null;
  }
  for (let page = 1; page <= walk.pages; page++) {
    const answer = await get(`${baseUrl}/api/customers?count=${count}&page=${page}`, key);
    walk.byPage += answer.rows;
    walk.maxPageN = Math.max(walk.maxPageN, answer.rows);
  }
  return walk;
}

/** One customer's orders, `count` a page, by next_page_url: the most rows one page read. */
export async function measureOrdersWalk(baseUrl: string, key: string, phone: string, count: number) {
  const walk = { orders: 0, pages: 0, maxPage: 0 };
  for (let url: string | null = `${baseUrl}/api/orders?phone_number=${phone}&count=${count}`; url; walk.pages++) {
    const answer = await get(url, key);
    walk.orders += (answer.body.data?.orders as unknown[] | undefined)?.length ?? 0;
    walk.maxPage = Math.max(walk.maxPage, answer.rows);
    url = answer.body.data?.pagination?.next_page_url ?? null;
  }
  return walk;
}
