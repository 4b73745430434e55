// The field app's IndexedDB store (app/src/store.ts) over an in-memory IndexedDB (fake-indexeddb):
// answers applied whole or not at all, the list kept beside the book, the migration from version 1,
// enrollment of the same or another agent, and a 401 that arrives after a new key. The same store in
// Chromium: e2e/field-app.test.ts.
import "fake-indexeddb/auto";
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import {
  enrollKey,
  IdbSyncStore,
  isRefused,
  markRefused,
  openStore,
  ordersOf,
  outbox,
  putOutbox,
  readOpening,
  removeAll,
} from "../../app/src/store.ts";
import type { Change } from "../../app/src/service.ts";
import type { OutboxEntry } from "../../app/src/types.ts";

let names = 0;
const fresh = () => `store-test-${++names}`;

function customer(id: number, company: string, pin = "400001") {
  return {
    id,
    company_name: company,
    contact_person_name: `Contact ${id}`,
    contactperson_number: `+91 98${String(id).padStart(8, "0")}`,
    customer_code: `C${id}`,
    address: { area: { name: "Andheri" }, postalcode: { id: 1000 + id, code: pin } },
  } as never;
}
const order = (id: number, customerId: number, date: string) => ({ id, date, customer: { id: customerId } }) as never;
const upsert = (type: "customer" | "order", id: number, data: unknown) => ({ type, id, op: "upsert", data }) as Change;
const row = (id: number, company: string) => ({
  id,
  title: company,
  sub: `Contact ${id} · Andheri · +91 98${String(id).padStart(8, "0")}`,
  folded: `contact${id}\u0000${company.toLowerCase().replace(/\s+/g, "")}\u0000+9198${String(id).padStart(8, "0")}\u0000andheri\u0000c${id}`,
});
const shop = (agentId: number, name: string): OutboxEntry => ({
  idempotencyKey: `key-${name}`,
  params: { company_name: name } as never,
  agentId,
  state: "waiting",
  savedAt: "2026-11-28T10:00:00.000Z",
});
const KEY_A = { id: "key_a", secret: "sk_test_a", agent_id: 7, name: "Asha" };

describe("the field app's IndexedDB store", () => {
  it("applies an answer with its cursor, keeping the list's rows sorted and the book's PIN codes", async () => {
    const db = await openStore(fresh());
    const store = new IdbSyncStore(db);
    await store.applyAnswer(
      [
        upsert("customer", 2, customer(2, "Zeta Stores")),
        upsert("customer", 1, customer(1, "Alpha Traders", "400002")),
        upsert("order", 10, order(10, 1, "2026-01-02")),
        upsert("order", 11, order(11, 1, "2026-03-04")),
        upsert("order", 12, order(12, 2, "2026-01-01")),
      ],
      { cursor: "c1" },
    );
    expect(await readOpening(db)).toMatchObject({
      list: [row(1, "Alpha Traders"), row(2, "Zeta Stores")],
      refused: false,
      waiting: [],
    });
    expect(await db.get("meta", "postalcodes")).toEqual({ "400001": 1002, "400002": 1001 });
    expect((await ordersOf(db, 1)).map((o) => o.id)).toEqual([11, 10]);

    // A customer's delete takes its row and its orders; an order's upsert leaves the list as it was.
    await store.applyAnswer(
      [{ type: "customer", id: 1, op: "delete", data: null }, upsert("order", 13, order(13, 2, "2026-05-05"))],
      { cursor: "c2", etag: '"e2"' },
    );
    expect({
      list: (await readOpening(db)).list,
      orders: await db.getAllKeys("order"),
      cursor: await store.getCursor(),
    }).toEqual({ list: [row(2, "Zeta Stores")], orders: [12, 13], cursor: { cursor: "c2", etag: '"e2"' } });
    db.close();
  });

  it("keeps nothing of an answer that fails part way: records, rows and cursor stay as they were", async () => {
    const db = await openStore(fresh());
    const store = new IdbSyncStore(db);
    await store.applyAnswer([upsert("customer", 1, customer(1, "Alpha Traders"))], { cursor: "c1" });
    const unstorable = { ...(customer(3, "Broken") as object), reader: () => 0 };
    await expect(
      store.applyAnswer([upsert("customer", 2, customer(2, "Beta")), upsert("customer", 3, unstorable)], {
        cursor: "c2",
      }),
    ).rejects.toMatchObject({ name: "DataCloneError" });
    expect({
      customers: await db.getAllKeys("customer"),
      list: (await readOpening(db)).list,
      cursor: await store.getCursor(),
    }).toEqual({ customers: [1], list: [row(1, "Alpha Traders")], cursor: { cursor: "c1" } });
    db.close();
  });

  it("migrates a version 1 copy: the list made from its customers, its cursor, key, outbox and refusal kept", async () => {
    const name = fresh();
    // Version 1's layout, as that app wrote it: no list, a refused key marked `true`.
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore("customer");
        db.createObjectStore("order").createIndex("customer", "customer.id");
        db.createObjectStore("meta");
        db.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
      },
    });
    await old.put("customer", customer(5, "Mango Mart"), 5);
    await old.put("customer", customer(4, "Kiwi Kirana"), 4);
    await old.put("order", order(40, 4, "2026-02-02"), 40);
    await old.put("meta", { cursor: "v1-cursor", etag: '"v1"' }, "cursor");
    await old.put("meta", KEY_A, "key");
    await old.put("meta", true, "keyRefused");
    await old.put("outbox", shop(7, "Waiting Shop"));
    old.close();

    const db = await openStore(name);
    expect(await readOpening(db)).toMatchObject({
      key: KEY_A,
      refused: true,
      list: [row(4, "Kiwi Kirana"), row(5, "Mango Mart")],
      waiting: [{ ...shop(7, "Waiting Shop"), seq: 1 }],
    });
    expect({
      cursor: await db.get("meta", "cursor"),
      refusedKey: await db.get("meta", "keyRefused"),
      postalcodes: await db.get("meta", "postalcodes"),
      orders: await db.getAllKeys("order"),
    }).toEqual({
      cursor: { cursor: "v1-cursor", etag: '"v1"' },
      refusedKey: "key_a",
      postalcodes: { "400001": 1005 },
      orders: [40],
    });
    db.close();
  });

  it("a new key of the same agent keeps the book and the outbox; another agent's drops the book and holds the shops", async () => {
    const db = await openStore(fresh());
    const store = new IdbSyncStore(db);
    await enrollKey(db, KEY_A);
    await store.applyAnswer([upsert("customer", 1, customer(1, "Alpha Traders"))], { cursor: "c1" });
    await putOutbox(db, shop(7, "Shop One"));
    await markRefused(db, ["key_a"]);

    await enrollKey(db, { ...KEY_A, id: "key_a2", secret: "sk_test_a2" });
    expect(await readOpening(db)).toMatchObject({ refused: false, list: [row(1, "Alpha Traders")] });
    expect((await outbox(db)).map((e) => e.state)).toEqual(["waiting"]);
    expect(await store.getCursor()).toEqual({ cursor: "c1" });

    await enrollKey(db, { id: "key_b", secret: "sk_test_b", agent_id: 8, name: "Vikram" });
    expect(await readOpening(db)).toMatchObject({ refused: false, list: [] });
    expect({
      customers: await db.getAllKeys("customer"),
      cursor: await store.getCursor(),
      outbox: (await outbox(db)).map((e) => [e.params.company_name, e.state]),
    }).toEqual({ customers: [], cursor: null, outbox: [["Shop One", "confirm"]] });
    db.close();
  });

  it("a 401 for a key that a new enrollment replaced meanwhile does not mark the new key refused", async () => {
    const db = await openStore(fresh());
    await enrollKey(db, KEY_A);
    // A request went out with key_a; before its 401 came back the phone was enrolled again.
    await enrollKey(db, { ...KEY_A, id: "key_a2", secret: "sk_test_a2" });
    expect(await markRefused(db, ["key_a"])).toBe(false);
    expect(await isRefused(db)).toBe(false);
    // The current key's own 401 (or its successor's after a rotation) does.
    expect(await markRefused(db, ["key_a", "key_a2"])).toBe(true);
    expect(await isRefused(db)).toBe(true);
    db.close();
  });

  it("removes everything: key, book, lookups and outbox", async () => {
    const db = await openStore(fresh());
    await enrollKey(db, KEY_A);
    await new IdbSyncStore(db).applyAnswer([upsert("customer", 1, customer(1, "Alpha Traders"))], { cursor: "c1" });
    await putOutbox(db, shop(7, "Shop One"));
    await removeAll(db);
    const counts = await Promise.all((["customer", "order", "meta", "outbox"] as const).map((s) => db.count(s)));
    expect(counts).toEqual([0, 0, 0, 0]);
    db.close();
  });
});
