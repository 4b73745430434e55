// The sync helper (docs/specification.md section 8, "In the typed client"): keeps an agent's book in a store
// that the app supplies, following the cursors until caught up. The store's rules: docs/api.md, "The store".
import type { Change, Customer, ErrorEnvelope, Order } from "./api.gen.js";
import type { ApiClient } from "./client.js";

/** The kinds of record a book holds, and each kind's record. */
export interface RecordOf {
  customer: Customer;
  order: Order;
}
export type RecordKind = keyof RecordOf;

/** The last cursor applied; `etag` is the last answer's when it ended the changes (a 304 then says nothing is new). */
export interface SyncPosition {
  cursor: string;
  etag?: string;
  /** A walk over records already held, not finished: the helper starts it over (see sync). */
  resync?: true;
}

/** Where the app keeps its copy of the book (a database on a phone, a Map in a test). */
export interface SyncStore {
  get<K extends RecordKind>(kind: K, id: number): Promise<RecordOf[K] | undefined>;
  put<K extends RecordKind>(kind: K, id: number, record: RecordOf[K]): Promise<void>;
  /** Removes the record; a customer's delete removes its orders held too (those whose `customer.id` is `id`). */
  delete(kind: RecordKind, id: number): Promise<void>;
  /** The ids of the records held: a resync after a 410 drops those it did not deliver. */
  listIds(kind: RecordKind): Promise<number[]>;
  getCursor(): Promise<SyncPosition | null>;
  putCursor(position: SyncPosition | null): Promise<void>;
  /** Forgets the records and the cursor (an app signing out, or enrolled for another agent). */
  clear(): Promise<void>;
  /**
   * Optional, and what a store on a database should offer: applies one answer's changes in order (as
   * `applyChange` does) and stores `position`, all in one transaction, so that a copy killed at any moment is
   * at a position it has fully applied. Without it the helper calls put/delete per change, then putCursor.
   */
  applyAnswer?(changes: readonly Change[], position: SyncPosition): Promise<void>;
}

/** Applies one change to a store through its get/put/delete (e.g. inside a store's own applyAnswer). */
export async function applyChange(store: Pick<SyncStore, "put" | "delete">, change: Change): Promise<void> {
  if (change.op === "delete" || change.data === null) await store.delete(change.type, change.id);
  else if (change.type === "customer") await store.put("customer", change.id, change.data);
  else await store.put("order", change.id, change.data);
}

/** A SyncStore in memory: for tests and small tools. */
export class MemorySyncStore implements SyncStore {
  readonly records: { [K in RecordKind]: Map<number, RecordOf[K]> } = { customer: new Map(), order: new Map() };
  position: SyncPosition | null = null;

  async get<K extends RecordKind>(kind: K, id: number): Promise<RecordOf[K] | undefined> {
    return this.records[kind].get(id);
  }
  async put<K extends RecordKind>(kind: K, id: number, record: RecordOf[K]): Promise<void> {
    this.records[kind].set(id, record);
  }
  async delete(kind: RecordKind, id: number): Promise<void> {
    this.records[kind].delete(id);
    if (kind !== "customer") return;
    for (const [orderId, order] of this.records.order) if (order.customer.id === id) this.records.order.delete(orderId);
  }
  async listIds(kind: RecordKind): Promise<number[]> {
    return [...this.records[kind].keys()];
  }
  async getCursor(): Promise<SyncPosition | null> {
    return this.position;
  }
  async putCursor(position: SyncPosition | null): Promise<void> {
    this.position = position;
  }
  async clear(): Promise<void> {
    this.records.customer.clear();
    this.records.order.clear();
    this.position = null;
  }
  /** All or nothing, as a database's transaction: a change that fails leaves the copy as it was. */
  async applyAnswer(changes: readonly Change[], position: SyncPosition): Promise<void> {
    const customers = new Map(this.records.customer);
    const orders = new Map(this.records.order);
    try {
      for (const change of changes) await applyChange(this, change);
    } catch (err) {
      refill(this.records.customer, customers);
      refill(this.records.order, orders);
      throw err;
    }
    this.position = position;
  }
}

function refill<V>(map: Map<number, V>, from: Map<number, V>): void {
  map.clear();
  for (const [id, record] of from) map.set(id, record);
}

export interface SyncOptions {
  /** The agent whose book to sync; a key bound to an agent may leave it out. */
  salesagentId?: number;
  /** Records an answer, 1 to 1000 (the service's default: 200). */
  limit?: number;
}

export interface SyncResult {
  /** Answers applied (a 304 applies none). */
  pages: number;
  changes: number;
  /** The service answered 410 and the book was synced again from no cursor. */
  resynced: boolean;
  /** Records dropped after a walk over records already held: held, but not delivered by it. */
  removed: number;
}

/**
 * An answer that the helper cannot apply: its status and the service's error (`error` null when the answer
 * had none). A 401 means the key no longer works: keep the copy and its cursor, and sync again with a new key
 * of the same agent.
 */
export class SyncError extends Error {
  override readonly name = "SyncError";
  readonly error: ErrorEnvelope["error"] | null;
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = (body as Partial<ErrorEnvelope> | null)?.error ?? null;
    super(error?.description ?? `GET /sync answered ${status}`);
    this.error = error;
  }
}

/**
 * Brings the store up to date: asks with the stored cursor (and the ETag of a caught-up answer), applies each
 * answer's changes together with its next_cursor, and asks again while has_more is true. A walk from no cursor
 * over records already held (after a 410, or a first sync cut short before its first cursor was stored) ends by
 * dropping every record it did not deliver. Which ones it delivered is known only in memory, so a walk like
 * that cut short is started over. Any other failure leaves the store at the last answer applied: calling again
 * resumes from there.
 */
export async function sync(api: ApiClient, store: SyncStore, options: SyncOptions = {}): Promise<SyncResult> {
  const result: SyncResult = { pages: 0, changes: 0, resynced: false, removed: 0 };
  let position = await store.getCursor();
  let delivered: Set<string> | null = null;
  if (position?.resync || (!position && (await holdsRecords(store)))) {
    position = null;
    delivered = new Set();
  }
  for (;;) {
    const query = {
      ...(options.salesagentId === undefined ? {} : { salesagent_id: String(options.salesagentId) }),
      ...(options.limit === undefined ? {} : { limit: String(options.limit) }),
      ...(position ? { cursor: position.cursor } : {}),
    };
    const headers: Record<string, string> = position?.etag ? { "If-None-Match": position.etag } : {};
    const res = await api.sync.$get({ query }, { headers });
    if (res.status === 304) break;
    if (res.status === 410 && !result.resynced) {
      delivered = new Set();
      result.resynced = true;
      position = null;
      continue;
    }
    if (res.status !== 200) throw new SyncError(res.status, await res.json().catch(() => null));
    const { data } = await res.json();
    for (const change of data.changes) delivered?.add(`${change.type}:${change.id}`);
    // An answer that ends the changes carries the ETag of the caught-up answer at its next_cursor.
    const etag = res.headers.get("ETag");
    position = !data.has_more && etag ? { cursor: data.next_cursor, etag } : { cursor: data.next_cursor };
    await apply(store, data.changes, delivered ? { ...position, resync: true } : position);
    result.pages++;
    result.changes += data.changes.length;
    if (!data.has_more) break;
  }
  if (delivered && position) {
    const drops: Change[] = [];
    for (const type of ["customer", "order"] as const) {
      for (const id of await store.listIds(type)) {
        if (!delivered.has(`${type}:${id}`)) drops.push({ type, id, op: "delete", data: null });
      }
    }
    await apply(store, drops, position);
    result.removed = drops.length;
  }
  return result;
}

async function apply(store: SyncStore, changes: readonly Change[], position: SyncPosition): Promise<void> {
  if (store.applyAnswer) return store.applyAnswer(changes, position);
  for (const change of changes) await applyChange(store, change);
  await store.putCursor(position);
}

async function holdsRecords(store: SyncStore): Promise<boolean> {
  return (await store.listIds("customer")).length > 0 || (await store.listIds("order")).length > 0;
}
