// The sync endpoint's tests' shared parts: requests, the book as the listings answer it, the typed
// client's helper over the worker, and the cost bound of docs/specification.md section 8.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import {
  type Change,
  createClient,
  type Customer,
  MemorySyncStore,
  type Order,
  sync,
  type SyncOptions,
} from "@order-lookup/client";
import { encodeSyncCursor, RECORD_SHAPE } from "../../src/sync/sync.cursor.ts";
import { BASE, call, type CallResult, contractFetch } from "../helpers/http.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";

export interface SyncBody {
  data: { changes: Change[]; next_cursor: string; has_more: boolean };
}
export type SyncResult = CallResult<SyncBody>;

/** GET /api/sync with these parameters (undefined ones left out). */
export function getSync(key: string, params: Record<string, string | number | undefined> = {}, headers = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const qs = query.toString();
  return call<SyncBody>(`/api/sync${qs ? `?${qs}` : ""}`, { key, headers });
}

/** A later sync's cursor at this seq; a first sync's after (customer, order) with `walk`. */
export function syncCursor(book: number, seq: number, walk?: [number, number, string], shape = RECORD_SHAPE) {
  return encodeSyncCursor({
    book,
    shape,
    position: walk
      ? { kind: "walk", start: seq, customer: walk[0], order: walk[1], date: walk[2] }
      : { kind: "log", seq },
  });
}

/** The book's highest seq: where a first sync starting now is pinned. */
export async function lastSeq(book: number): Promise<number> {
  const row = await env.DB.prepare("SELECT coalesce(max(seq), 0) AS seq FROM sync_changes WHERE book = ?")
    .bind(book)
    .first<{ seq: number }>();
  return row!.seq;
}

/** Every page of a listing, by following next_page_url. */
async function allPages<T>(key: string, first: string, pick: (body: any) => T[]): Promise<T[]> {
  const items: T[] = [];
  for (let url: string | null = first; url;) {
    const res: CallResult = await call(url, { key });
    expect(res.status).toBe(200);
    items.push(...pick(res.body));
    url = res.body.data.pagination.next_page_url;
  }
  return items;
}

export interface Book {
  customer: Map<number, Customer>;
  order: Map<number, Order>;
}

/** An agent's book as GET /customers (with the agent's key) and GET /orders (per customer) answer it. */
export async function bookFromListings(agentKey: string): Promise<Book> {
  const customers = await allPages<any>(agentKey, "/api/customers?count=100", (b) => b.data.customers);
  const book: Book = { customer: new Map(), order: new Map() };
  for (const customer of customers) {
    book.customer.set(customer.id, customer);
    const phone = encodeURIComponent(customer.contactperson_number);
    const orders = await allPages<any>(agentKey, `/api/orders?count=100&phone_number=${phone}`, (b) => b.data.orders);
    for (const order of orders) book.order.set(order.id, order);
  }
  return book;
}

/** The first sync's changes for a book: each customer by id, then its orders by date, then id. */
export function walkOf(book: Book): Change[] {
  const changes: Change[] = [];
  const orders = [...book.order.values()] as any[];
  for (const id of [...book.customer.keys()].sort((a, b) => a - b)) {
    changes.push({ type: "customer", id, op: "upsert", data: book.customer.get(id) as any });
    const mine = orders.filter((o) => o.customer.id === id);
    for (const order of mine.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id))) {
      changes.push({ type: "order", id: order.id, op: "upsert", data: order });
    }
  }
  return changes;
}

/**
 * SPEC's bound: 20, plus 8 a customer record, plus for each order record 4 per order, line and
 * invoice and 8 for its customer and address. Statuses are left out of the allowance (stricter).
 */
export function costBound(changes: Change[]): number {
  let bound = 20;
  for (const change of changes) {
    if (change.type === "customer") bound += 8;
    else {
      const order = change.data;
      bound += 4 * (1 + (order?.products.length ?? 0) + (order?.invoices.length ?? 0)) + 8;
    }
  }
  return bound;
}

/** The answer's rows read are within the bound for its changes. */
export function expectWithinCost(res: SyncResult) {
  const rows = rowsReadOf(res);
  const bound = costBound(res.body.data.changes);
  expect({ rows, withinBound: rows <= bound }).toEqual({ rows, withinBound: true });
}

/** The typed client over the worker, every answer held to the contract. */
export function client(key: string) {
  return createClient(BASE, key, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => contractFetch(input, init),
  });
}

/** A replica kept by the typed client's helper, and its records as a Book for comparing with bookFromListings. */
export async function replicate(key: string, store = new MemorySyncStore(), options: SyncOptions = {}) {
  const result = await sync(client(key), store, options);
  return { store, result, book: sortedBook(store.records) };
}

export function sortedBook(book: Book): Book {
  const sorted = <R>(m: Map<number, R>) => new Map([...m].sort(([a], [b]) => a - b));
  return { customer: sorted(book.customer), order: sorted(book.order) };
}
