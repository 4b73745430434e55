// The phone's copy in IndexedDB (through idb): the book, the cursor, the key, the outbox and the
// lookups kept for offline use. One sync answer's changes and its cursor are written in one
// transaction, so a page killed at any moment leaves the copy at a cursor it has wholly applied.
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { SyncPosition, SyncRecord, SyncRecordType, SyncStore } from "./service.ts";
import type { Area, Customer, Order, OutboxEntry, StoredKey } from "./types.ts";

export const DB_NAME = "order-lookup-field-app";
/** A change of the records' shape or of the stores is a new version: upgrade() below rebuilds. */
const DB_VERSION = 1;

interface Meta {
  cursor: SyncPosition;
  key: StoredKey;
  /** The key was refused (401): nothing is sent until a new code is exchanged. */
  keyRefused: true;
  lastSync: string;
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

export function openStore(): Promise<Db> {
  return openDB<AppDb>(DB_NAME, DB_VERSION, {
    upgrade(db, oldVersion) {
      // An older layout of the book is dropped and synced again from no cursor; the key and the
      // outbox are kept by each upgrade that changes them (none yet: version 1 is the first).
      if (oldVersion > 0) {
        for (const name of ["customer", "order"] as const) {
          if (db.objectStoreNames.contains(name)) db.deleteObjectStore(name);
        }
      }
      db.createObjectStore("customer");
      db.createObjectStore("order").createIndex("customer", "customer.id");
      if (!db.objectStoreNames.contains("meta")) db.createObjectStore("meta");
      if (!db.objectStoreNames.contains("outbox"))
        db.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
    },
  });
}

export async function getMeta<K extends keyof Meta>(db: Db, key: K): Promise<Meta[K] | undefined> {
  return (await db.get("meta", key)) as Meta[K] | undefined;
}

export async function setMeta<K extends keyof Meta>(db: Db, key: K, value: Meta[K] | undefined): Promise<void> {
  if (value === undefined) await db.delete("meta", key);
  else await db.put("meta", value, key);
}

type Pending = { type: SyncRecordType; id: number; record: SyncRecord | null };

/**
 * The client's SyncStore over IndexedDB. The sync helper applies an answer's changes one by one and
 * then stores its cursor: the changes wait here in memory and are committed with the cursor.
 */
export class IdbSyncStore implements SyncStore {
  private pending = new Map<string, Pending>();

  constructor(
    private readonly db: Db,
    /** Called after each committed answer, e.g. to show the new records. */
    private readonly committed: () => void = () => {},
  ) {}

  async get(type: SyncRecordType, id: number): Promise<SyncRecord | undefined> {
    const waiting = this.pending.get(`${type}:${id}`);
    if (waiting) return waiting.record ?? undefined;
    return (await this.db.get(type, id)) as SyncRecord | undefined;
  }
  async put(type: SyncRecordType, id: number, record: SyncRecord): Promise<void> {
    this.pending.set(`${type}:${id}`, { type, id, record });
  }
  async delete(type: SyncRecordType, id: number): Promise<void> {
    this.pending.set(`${type}:${id}`, { type, id, record: null });
  }
  async listIds(type: SyncRecordType): Promise<number[]> {
    const ids = new Set(await this.db.getAllKeys(type));
    for (const p of this.pending.values()) {
      if (p.type !== type) continue;
      if (p.record) ids.add(p.id);
      else ids.delete(p.id);
    }
    return [...ids];
  }
  async getCursor(): Promise<SyncPosition | null> {
    return (await getMeta(this.db, "cursor")) ?? null;
  }
  async putCursor(position: SyncPosition | null): Promise<void> {
    const tx = this.db.transaction(["customer", "order", "meta"], "readwrite");
    const writes: Promise<unknown>[] = [];
    for (const p of this.pending.values()) {
      const store = tx.objectStore(p.type);
      writes.push(p.record ? store.put(p.record as never, p.id) : store.delete(p.id));
    }
    const meta = tx.objectStore("meta");
    writes.push(position ? meta.put(position, "cursor") : meta.delete("cursor"));
    writes.push(meta.put(new Date().toISOString(), "lastSync"));
    await Promise.all([...writes, tx.done]);
    this.pending.clear();
    this.committed();
  }
  async clear(): Promise<void> {
    this.pending.clear();
    const tx = this.db.transaction(["customer", "order", "meta"], "readwrite");
    await Promise.all([
      tx.objectStore("customer").clear(),
      tx.objectStore("order").clear(),
      tx.objectStore("meta").delete("cursor"),
      tx.objectStore("meta").delete("lastSync"),
      tx.done,
    ]);
  }
}

export function allCustomers(db: Db): Promise<Customer[]> {
  return db.getAll("customer");
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
