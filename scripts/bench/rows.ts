// What each endpoint reads from D1, from its Server-Timing d1rows (the sum of D1's own rows_read
// over the request's statements): a first page and the page that its next_page_url leads to; and
// what walking every customer costs by next_page_url (its cursor) against building page=N URLs.
import { createBody, type CreateBody } from "../../test/fixtures/create-body.ts";
import { rowsRead } from "./cannon.ts";

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
  /** Customers seen more than once, and ids the total promised but the walk never saw. */
  repeated: number;
  missed: number;
  /** The customer created after the walk's second page: how often the walk saw it (1 is right). */
  createdMidWalkSeen: number;
  /** Pages that read more than 8 rows per customer plus 10 (docs/specification.md section 4). */
  pagesOverBound: number;
  /** Rows read by the first page of 10, and the deepest page of 10 reached by next_page_url. */
  firstOf10: number;
  deepestOf10: number;
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
  if (res.status !== 200 && res.status !== 404)
    throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  const rows = rowsRead(res.headers.get("Server-Timing"));
  if (rows === undefined) throw new Error(`GET ${url} has no d1rows in Server-Timing`);
  return { rows, body: (await res.json()) as Answer["body"] };
}

/** Each endpoint's rows read, and its next page's (by the cursor of next_page_url). */
export async function measureRowsRead(
  baseUrl: string,
  key: string,
  endpoints: { label: string; path: string }[],
): Promise<RowsRead[]> {
  const out: RowsRead[] = [];
  for (const { label, path } of endpoints) {
    const first = await get(`${baseUrl}${path}`, key);
    const nextUrl = first.body.data?.pagination?.next_page_url ?? null;
    out.push({ label, path, first: first.rows, next: nextUrl ? (await get(nextUrl, key)).rows : null });
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

/** The customer created mid-walk: a fresh mobile number, the fixture's area, postal code and agent (1). */
function midWalkCustomer(): CreateBody {
  const mobile = `9${String(Date.now() % 1_000_000_000).padStart(9, "0")}`;
  return createBody(mobile, {
    company_name: "Bench Mid-walk Stores",
    contactpersons_name: "Bench",
    address: "1 Walk Road",
  });
}

/** Creates one customer through the API (POST /api/customers/create, JSON) and returns its id. */
export async function createCustomer(baseUrl: string, key: string, body: CreateBody): Promise<number> {
  const res = await fetch(`${baseUrl}/api/customers/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /api/customers/create answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

/**
 * Every customer, `count` a page, by next_page_url and by page=N. The cursor walk checks what
 * paging promises: each customer exactly once, also one created after its second page, and no page
 * over 8 rows per customer plus 10.
 */
export async function measureWalk(baseUrl: string, key: string, count: number): Promise<WalkCost> {
  let byCursor = 0;
  let maxCursorPage = 0;
  let pages = 0;
  let pagesOverBound = 0;
  let total = 0;
  let createdId: number | undefined;
  const seen = new Map<number, number>();
  for (let url: string | null = `${baseUrl}/api/customers?count=${count}`; url !== null; pages++) {
    const answer = await get(url, key);
    byCursor += answer.rows;
    maxCursorPage = Math.max(maxCursorPage, answer.rows);
    const customers = (answer.body.data?.customers as { id: number }[] | undefined) ?? [];
    if (answer.rows > 8 * customers.length + 10) pagesOverBound++;
    for (const { id } of customers) seen.set(id, (seen.get(id) ?? 0) + 1);
    total = Math.max(total, (answer.body.data?.pagination as { total?: number } | undefined)?.total ?? 0);
    if (pages === 1) createdId = await createCustomer(baseUrl, key, midWalkCustomer());
    url = answer.body.data?.pagination?.next_page_url ?? null;
  }
  let byPage = 0;
  let maxPageN = 0;
  for (let page = 1; page <= pages; page++) {
    const answer = await get(`${baseUrl}/api/customers?count=${count}&page=${page}`, key);
    byPage += answer.rows;
    maxPageN = Math.max(maxPageN, answer.rows);
  }
  const { first: firstOf10, deepest: deepestOf10 } = await firstAndDeepest(`${baseUrl}/api/customers?count=10`, key);
  const counts = [...seen.values()];
  return {
    customers: seen.size,
    repeated: counts.filter((n) => n > 1).length,
    missed: Math.max(0, total - seen.size),
    createdMidWalkSeen: createdId === undefined ? 0 : (seen.get(createdId) ?? 0),
    pagesOverBound,
    firstOf10,
    deepestOf10,
    pages,
    byCursor,
    byPage,
    maxCursorPage,
    maxPageN,
  };
}

/** Rows read by a listing's first page and by the most expensive page that next_page_url leads to. */
async function firstAndDeepest(firstUrl: string, key: string): Promise<{ first: number; deepest: number }> {
  let first = -1;
  let deepest = 0;
  for (let url: string | null = firstUrl; url !== null;) {
    const answer = await get(url, key);
    if (first < 0) first = answer.rows;
    else deepest = Math.max(deepest, answer.rows);
    url = answer.body.data?.pagination?.next_page_url ?? null;
  }
  return { first, deepest };
}

export interface OrdersWalk {
  orders: number;
  pages: number;
  /** Pages over 4 rows per order, line and invoice plus 10 (statuses not counted: stricter than the rule). */
  pagesOverBound: number;
  maxPage: number;
  total: number;
}

/** One customer's orders, `count` a page, by next_page_url, against the orders page bound. */
export async function measureOrdersWalk(
  baseUrl: string,
  key: string,
  phone: string,
  count: number,
): Promise<OrdersWalk> {
  type Order = { products: unknown[]; invoices: unknown[] };
  let pages = 0;
  let pagesOverBound = 0;
  let maxPage = 0;
  let orders = 0;
  let total = 0;
  for (let url: string | null = `${baseUrl}/api/orders?phone_number=${phone}&count=${count}`; url !== null; pages++) {
    const answer = await get(url, key);
    const page = (answer.body.data?.orders as Order[] | undefined) ?? [];
    total = (answer.body.data?.pagination as { total?: number } | undefined)?.total ?? total;
    const items = page.reduce((n, o) => n + 1 + o.products.length + o.invoices.length, 0);
    // Without dates the total is the customer's kept count, one row: no allowance for its orders.
    if (answer.rows > 4 * items + 10) pagesOverBound++;
    maxPage = Math.max(maxPage, answer.rows);
    orders += page.length;
    url = answer.body.data?.pagination?.next_page_url ?? null;
  }
  return { orders, pages, pagesOverBound, maxPage, total };
}
