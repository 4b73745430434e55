// The phone's copy in IndexedDB (through idb): the book, the cursor, the key, the outbox and the
// lookups kept for offline use. One sync answer's changes and its cursor are written in one
// transaction, so a page killed at any moment leaves the copy at a cursor it has wholly applied.
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import { byTitle, type Row, rowOf } from "./search.ts";
import type { Change, RecordKind, RecordOf, SyncPosition, SyncStore } from "./service.ts";
import type { Area, Customer, Order, OutboxEntry, StoredKey } from "./types.ts";

export const DB_NAME = "order-lookup-field-app";
/** A change of the records' shape or of the stores is a new version, migrated in upgrade() below. */
export const DB_VERSION = 2;

export interface Meta {
  cursor: SyncPosition;
  key: StoredKey;
  /** The id of the key refused (401): nothing is sent until a new code is exchanged. */
  keyRefused: string;
  lastSync: string;
  /** The list's rows, sorted: what opening the app reads, instead of every customer (version 2). */
  list: Row[];
  areas: Area[];
  /** When the areas were last asked for. */
  areasAt: string;
  /** PIN code to postal code id: the book's and every one looked up. */
  postalcodes: Record<string, number>;
  persisted: boolean;
}

interface AppDb extends DBSchema {
  customer: { key: number; value: Customer };
  order: { key: number; value: Order; indexes: { customer: number } };
  meta: { key: keyof Meta; value: Meta[keyof Meta] };
  outbox: { key: number; value: OutboxEntry };
}

export type Db = IDBPDatabase<AppDb>;

export function openStore(name = DB_NAME): Promise<Db> {
  return openDB<AppDb>(name, DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        db.createObjectStore("customer");
        db.createObjectStore("order").createIndex("customer", "customer.id");
        db.createObjectStore("meta");
        db.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
      }
      // Version 1 kept no list and marked a refused key with `true`: both made from what it stored,
      // in this same transaction, so the book opens offline at once and the cursor goes on.
      if (oldVersion === 1) {
        const meta = tx.objectStore("meta");
        const rows: Row[] = [];
        const codes: Record<string, number> = ((await meta.get("postalcodes")) as Meta["postalcodes"]) ?? {};
        for (let c = await tx.objectStore("customer").openCursor(); c; c = await c.continue()) {
          rows.push(rowOf(c.value));
          if (!Array.isArray(c.value.address)) codes[c.value.address.postalcode.code] = c.value.address.postalcode.id;
        }
        await meta.put(rows.sort(byTitle), "list");
        await meta.put(codes, "postalcodes");
        const key = (await meta.get("key")) as StoredKey | undefined;
        if ((await meta.get("keyRefused")) === true) {
          if (key) await meta.put(key.id, "keyRefused");
          else await meta.delete("keyRefused");
        }
      }
    },
  });
}

type Clearable = { clear(): Promise<void> };

/** Drops the book and its cursor, so that the next sync makes it anew (another agent's key). */
async function dropBook(customer: Clearable, order: Clearable, meta: { delete(key: keyof Meta): Promise<void> }) {
  await Promise.all([
    customer.clear(),
    order.clear(),
    meta.delete("cursor"),
    meta.delete("lastSync"),
    meta.delete("list"),
  ]);
}

export async function getMeta<K extends keyof Meta>(db: Db, key: K): Promise<Meta[K] | undefined> {
  return (await db.get("meta", key)) as Meta[K] | undefined;
}

export async function setMeta<K extends keyof Meta>(db: Db, key: K, value: Meta[K] | undefined): Promise<void> {
  if (value === undefined) await db.delete("meta", key);
  else await db.put("meta", value, key);
}

/** What opening the app shows, read in one transaction: the key, the list, the outbox and the status. */
export async function readOpening(db: Db) {
  const tx = db.transaction(["meta", "outbox"]);
  const meta = tx.objectStore("meta");
  const [key, refused, list, lastSync, persisted, waiting] = await Promise.all([
    meta.get("key") as Promise<StoredKey | undefined>,
    meta.get("keyRefused") as Promise<string | undefined>,
    meta.get("list") as Promise<Row[] | undefined>,
    meta.get("lastSync") as Promise<string | undefined>,
    meta.get("persisted") as Promise<boolean | undefined>,
    tx.objectStore("outbox").getAll(),
  ]);
  return { key, refused: key !== undefined && refused === key.id, list: list ?? [], lastSync, persisted, waiting };
}

/** A new key (an enrollment): the refusal of an earlier key ends; another agent's book is dropped. */
export async function enrollKey(db: Db, key: StoredKey): Promise<void> {
  const tx = db.transaction(["customer", "order", "meta", "outbox"], "readwrite");
  const meta = tx.objectStore("meta");
  const before = (await meta.get("key")) as StoredKey | undefined;
  if (before && before.agent_id !== key.agent_id) {
    await dropBook(tx.objectStore("customer"), tx.objectStore("order"), meta);
    // Shops saved for the other agent wait for this agent's confirmation, one by one.
    for (const entry of await tx.objectStore("outbox").getAll()) {
      if (entry.agentId !== key.agent_id) await tx.objectStore("outbox").put({ ...entry, state: "confirm" });
    }
  }
  await Promise.all([meta.put(key, "key"), meta.delete("keyRefused"), tx.done]);
}

/**
 * Marks the key refused after a 401, only when it is still one of `used` (the key a request went with,
 * or its successor): a 401 for a key already replaced by an enrollment says nothing of the new one.
 */
export async function markRefused(db: Db, used: readonly string[]): Promise<boolean> {
  const tx = db.transaction("meta", "readwrite");
  const key = (await tx.store.get("key")) as StoredKey | undefined;
  const refused = key !== undefined && used.includes(key.id);
  if (refused) await tx.store.put(key.id, "keyRefused");
  await tx.done;
  return refused;
}

export async function isRefused(db: Db): Promise<boolean> {
  const tx = db.transaction("meta");
  const [key, refused] = await Promise.all([tx.store.get("key"), tx.store.get("keyRefused")]);
  return key !== undefined && refused === (key as StoredKey).id;
}

/** A request whose outcome is its transaction's: a failed one shows in `tx.done`, never as an unhandled rejection. */
const settled = (request: Promise<unknown>): void => void request.catch(() => {});

/**
 * The client's SyncStore over IndexedDB: the sync helper hands each answer to applyAnswer, which writes
 * its changes, the list's rows they change and its cursor in one transaction.
 */
export class IdbSyncStore implements SyncStore {
  constructor(
    private readonly db: Db,
    /** Called after each committed answer, e.g. to show the new records. */
    private readonly committed: () => void = () => {},
  ) {}

  async get<K extends RecordKind>(kind: K, id: number): Promise<RecordOf[K] | undefined> {
    return (await this.db.get(kind, id)) as RecordOf[K] | undefined;
  }
  async put<K extends RecordKind>(kind: K, id: number, record: RecordOf[K]): Promise<void> {
    const change = { type: kind, id, op: "upsert", data: record } as Change;
    await this.write([change], null);
  }
  async delete(kind: RecordKind, id: number): Promise<void> {
    await this.write([{ type: kind, id, op: "delete", data: null }], null);
  }
  async listIds(kind: RecordKind): Promise<number[]> {
    return this.db.getAllKeys(kind);
  }
  async getCursor(): Promise<SyncPosition | null> {
    return (await getMeta(this.db, "cursor")) ?? null;
  }
  async putCursor(position: SyncPosition | null): Promise<void> {
    await setMeta(this.db, "cursor", position ?? undefined);
  }
  async applyAnswer(changes: readonly Change[], position: SyncPosition): Promise<void> {
    await this.write(changes, position);
    this.committed();
  }
  async clear(): Promise<void> {
    const tx = this.db.transaction(["customer", "order", "meta"], "readwrite");
    await Promise.all([dropBook(tx.objectStore("customer"), tx.objectStore("order"), tx.objectStore("meta")), tx.done]);
  }

  /** The changes in order, and the cursor with them when there is one, in one transaction: all or nothing. */
  private async write(changes: readonly Change[], position: SyncPosition | null): Promise<void> {
    const tx = this.db.transaction(["customer", "order", "meta"], "readwrite");
    try {
      const orders = tx.objectStore("order");
      const meta = tx.objectStore("meta");
      const touchesList = changes.some((c) => c.type === "customer");
      const rows = touchesList
        ? new Map((((await meta.get("list")) as Row[] | undefined) ?? []).map((r) => [r.id, r]))
        : null;
      const codes = touchesList ? (((await meta.get("postalcodes")) as Meta["postalcodes"] | undefined) ?? {}) : null;
      for (const change of changes) {
        if (change.op === "upsert" && change.data) {
          settled(tx.objectStore(change.type).put(change.data as never, change.id));
          if (change.type === "customer") {
            const c = change.data as Customer;
            rows!.set(c.id, rowOf(c));
            if (!Array.isArray(c.address)) codes![c.address.postalcode.code] = c.address.postalcode.id;
          }
          continue;
        }
        settled(tx.objectStore(change.type).delete(change.id));
        // A customer's delete takes its orders held with it (docs/api.md, "The store").
        if (change.type === "customer") {
          rows!.delete(change.id);
          for (const id of await orders.index("customer").getAllKeys(change.id)) settled(orders.delete(id));
        }
      }
      if (rows) settled(meta.put([...rows.values()].sort(byTitle), "list"));
      if (codes) settled(meta.put(codes, "postalcodes"));
      if (position) {
        settled(meta.put(position, "cursor"));
        settled(meta.put(new Date().toISOString(), "lastSync"));
      }
    } catch (error) {
      // Nothing of a half-applied answer is kept.
      tx.abort();
      await tx.done.catch(() => {});
      throw error;
    }
    await tx.done;
  }
}

export function getCustomer(db: Db, id: number): Promise<Customer | undefined> {
  return db.get("customer", id);
}

/** A customer's orders, newest first. */
export async function ordersOf(db: Db, customerId: number): Promise<Order[]> {
  const orders = await db.getAllFromIndex("order", "customer", customerId);
  return orders.sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
}

export function outbox(db: Db): Promise<OutboxEntry[]> {
  return db.getAll("outbox");
}

export async function putOutbox(db: Db, entry: OutboxEntry): Promise<number> {
  return db.put("outbox", entry);
}

export async function removeOutbox(db: Db, seq: number): Promise<void> {
  await db.delete("outbox", seq);
}

/** Forgets everything on this phone: key, book, lookups and (once the agent has confirmed) the outbox. */
export async function removeAll(db: Db): Promise<void> {
  const tx = db.transaction(["customer", "order", "meta", "outbox"], "readwrite");
  await Promise.all([...tx.objectStoreNames].map((name) => tx.objectStore(name).clear()).concat(tx.done));
}
