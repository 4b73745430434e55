// The phone's copy in IndexedDB (through idb): the book, the cursor, the key, the outbox and the
// lookups kept for offline use. One sync answer's changes and its cursor are written in one
// transaction, so a page killed at any moment leaves the copy at a cursor it has wholly applied.
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Change, RecordKind, RecordOf, SyncPosition, SyncStore } from "./service.ts";
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

/**
 * The client's SyncStore over IndexedDB: the sync helper hands each answer to applyAnswer, which writes
 * its changes and its cursor in one transaction.
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
    await Promise.all([
      tx.objectStore("customer").clear(),
      tx.objectStore("order").clear(),
      tx.objectStore("meta").delete("cursor"),
      tx.objectStore("meta").delete("lastSync"),
      tx.done,
    ]);
  }

  /** The changes in order, and the cursor with them when there is one, in one transaction. */
  private async write(changes: readonly Change[], position: SyncPosition | null): Promise<void> {
    const tx = this.db.transaction(["customer", "order", "meta"], "readwrite");
    const orders = tx.objectStore("order");
    for (const change of changes) {
      if (change.op === "upsert" && change.data) {
        void tx.objectStore(change.type).put(change.data as never, change.id);
        continue;
      }
      void tx.objectStore(change.type).delete(change.id);
      // A customer's delete takes its orders held with it (docs/api.md, "The store").
      if (change.type === "customer") {
        for (const id of await orders.index("customer").getAllKeys(change.id)) void orders.delete(id);
      }
    }
    if (position) {
      void tx.objectStore("meta").put(position, "cursor");
      void tx.objectStore("meta").put(new Date().toISOString(), "lastSync");
    }
    await tx.done;
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
