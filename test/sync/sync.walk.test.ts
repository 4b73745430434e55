// GET /sync on the test fixture (docs/specification.md section 8): who may sync what, a first sync's walk
// at any page size with records equal to the listings' items, the caught-up answer and its 304, 410
// and the typed client's recoveries, a cursor that outlives its key, reads at the primary, the cost.
import { env } from "cloudflare:workers";
import {
  applyChange,
  type Change,
  MemorySyncStore,
  sync,
  type SyncPosition,
  type SyncStore,
} from "@order-lookup/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearIsolateCaches, makeKey, markDue } from "../helpers/api-keys.ts";
import { callWithEnv, refusingBookmarksD1 } from "../helpers/faults.ts";
import { call, errorEnvelope, statusAndHeaders, validationEnvelope } from "../helpers/http.ts";
import { seedFixture } from "../helpers/seed.ts";
import { rowsReadOf, workOf } from "../helpers/timing-header.ts";
import {
  type Book,
  bookFromListings,
  client,
  expectWithinCost,
  getSync,
  lastSeq,
  replicate,
  sortedBook,
  type SyncBody,
  syncCursor,
  walkOf,
} from "./sync.helpers.ts";

let key: string;
let agent1: string;
let readOnlyAgent2: string;
let book1: Book;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey({ name: "office" })).secret;
  agent1 = (await makeKey({ name: "Asha's app", agentId: 1 })).secret;
  readOnlyAgent2 = (await makeKey({ name: "Vikram's app", agentId: 2, scopes: ["read"] })).secret;
  book1 = await bookFromListings(agent1);
});
beforeEach(() => clearIsolateCaches());

describe("who may sync which book", () => {
  it("an agent-bound key syncs its own book, with or without naming it; any key may name a book", async () => {
    const own = await getSync(agent1, { limit: 1000 });
    const named = await getSync(agent1, { limit: 1000, salesagent_id: 1 });
    const office = await getSync(key, { limit: 1000, salesagent_id: 1 });
    const expected = {
      data: { changes: walkOf(book1), next_cursor: syncCursor(1, await lastSeq(1)), has_more: false },
    };
    for (const res of [own, named, office]) {
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expected });
      // Byte for byte JSON.stringify of the answer: each change's text is made once and spliced in.
      expect({ text: res.text, type: res.headers.get("Content-Type") }).toEqual({
        text: JSON.stringify(expected),
        type: "application/json",
      });
    }
    expect(book1.customer.size).toBe(23);
    expect(book1.order.size).toBe(12);
  });

  it("an agent-bound key naming another agent's book: 403, before any parameter's 422", async () => {
    const res = await getSync(agent1, { salesagent_id: 2, limit: 0, cursor: "nonsense" });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 403,
      body: errorEnvelope(
        403,
        "PERMISSION_ERROR",
        "This API key is bound to sales agent 1: it may sync that agent's book only",
        "/api/sync",
      ),
    });
  });

  it("a key without the read scope: 403 naming the scope", async () => {
    const writeOnly = (await makeKey({ name: "writer", scopes: ["write"] })).secret;
    const res = await getSync(writeOnly, { salesagent_id: 1 });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 403,
      body: errorEnvelope(
        403,
        "PERMISSION_ERROR",
        "This API key lacks the 'read' scope, which GET /sync needs",
        "/api/sync",
      ),
    });
  });

  it.each([
    [
      "no book named by a key bound to none",
      {},
      [{ field: "salesagent_id", message: "is required for a key that is not bound to a sales agent" }],
    ],
    ["an unknown sales agent", { salesagent_id: 99 }, [{ field: "salesagent_id", message: "names no sales agent" }]],
    [
      "a book that is not an id",
      { salesagent_id: "1.5" },
      [{ field: "salesagent_id", message: "must be a sales agent's id: a positive integer" }],
    ],
    ["limit 0", { salesagent_id: 1, limit: 0 }, [{ field: "limit", message: "must be an integer between 1 and 1000" }]],
    [
      "limit 1001",
      { salesagent_id: 1, limit: 1001 },
      [{ field: "limit", message: "must be an integer between 1 and 1000" }],
    ],
    [
      "a cursor that does not decode",
      { salesagent_id: 1, cursor: "bm90IGEgY3Vyc29y" },
      [{ field: "cursor", message: "is not a sync cursor of this service: send next_cursor as it was given" }],
    ],
    [
      "a cursor of another book",
      { salesagent_id: 1, cursor: syncCursor(2, 0) },
      [{ field: "cursor", message: "is for another sales agent's book: send the cursor of this book" }],
    ],
    [
      "everything at once, each parameter once",
      { salesagent_id: 99, limit: "ten", cursor: "%%%" },
      [
        { field: "salesagent_id", message: "names no sales agent" },
        { field: "limit", message: "must be an integer between 1 and 1000" },
        { field: "cursor", message: "is not a sync cursor of this service: send next_cursor as it was given" },
      ],
    ],
  ] as const)("422 for %s", async (_, params, fields) => {
    const res = await getSync(key, params);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: validationEnvelope("/api/sync", [...fields]),
    });
  });

  it("422 for a cursor of another book sent by an agent-bound key, and for a parameter given twice", async () => {
    const other = await getSync(readOnlyAgent2, { cursor: syncCursor(1, 0) });
    expect({ status: other.status, body: other.body }).toEqual({
      status: 422,
      body: validationEnvelope("/api/sync", [
        { field: "cursor", message: "is for another sales agent's book: send the cursor of this book" },
      ]),
    });
    const repeated = await call("/api/sync?salesagent_id=1&limit=5&limit=6", { key });
    expect({ status: repeated.status, body: repeated.body }).toEqual({
      status: 422,
      body: validationEnvelope("/api/sync", [{ field: "limit", message: "must be given once, as a single value" }]),
    });
  });
});

/** A first sync's cursor right after the walk's change at this index (an order of customer 1). */
function walkCursorAt(start: number, index: number) {
  const change = walkOf(book1)[index]!;
  if (change.type !== "order") throw new Error(`change ${index} is not an order`);
  return syncCursor(1, start, [change.data!.customer.id, change.id, change.data!.date]);
}

describe("a first sync", () => {
  it.each([1, 2, 5, 13, 200])(
    "by %i records an answer: the same changes in the same order, each answer within its cost",
    async (limit) => {
      const changes = [];
      let cursor: string | undefined;
      let answers = 0;
      for (;;) {
        const res = await getSync(agent1, { limit, cursor });
        expect(res.status).toBe(200);
        expect(res.body.data.changes.length).toBeLessThanOrEqual(limit);
        expectWithinCost(res);
        changes.push(...res.body.data.changes);
        cursor = res.body.data.next_cursor;
        answers++;
        if (!res.body.data.has_more) break;
      }
      expect(changes).toEqual(walkOf(book1));
      expect(cursor).toBe(syncCursor(1, await lastSeq(1)));
      expect(answers).toBe(Math.floor(35 / limit) + 1);
    },
  );

  it("a walk's cursor names the last customer and order walked; the next answer starts right after them", async () => {
    const first = await getSync(agent1, { limit: 3 });
    const start = await lastSeq(1);
    expect(first.body.data).toEqual({
      changes: walkOf(book1).slice(0, 3),
      next_cursor: walkCursorAt(start, 2),
      has_more: true,
    });
    const next = await getSync(agent1, { limit: 3, cursor: first.body.data.next_cursor });
    expect(next.body.data).toEqual({
      changes: walkOf(book1).slice(3, 6),
      next_cursor: walkCursorAt(start, 5),
      has_more: true,
    });
  });

  it("goes on from a cursor with another key of the same agent: the cursor belongs to the book", async () => {
    const first = await getSync(agent1, { limit: 4 });
    const enrolled = (await makeKey({ name: "Asha's new phone", agentId: 1, scopes: ["read"] })).secret;
    const byOld = await getSync(agent1, { limit: 4, cursor: first.body.data.next_cursor });
    const byNew = await getSync(enrolled, { limit: 4, cursor: first.body.data.next_cursor });
    const byOffice = await getSync(key, { limit: 4, salesagent_id: 1, cursor: first.body.data.next_cursor });
    expect(byNew.body).toEqual(byOld.body);
    expect(byOffice.body).toEqual(byOld.body);
    expect(byOld.body.data.changes).toEqual(walkOf(book1).slice(4, 8));
  });

  it("goes on from a cursor after the app rotated its key (POST /keys/rotate): the successor reads on", async () => {
    const made = await makeKey({ name: "Asha's phone", agentId: 1, scopes: ["read"] });
    const phone = made.secret;
    // A key made moments ago rotates itself only once due (docs/specification.md section 9).
    await markDue(made.record.id);
    const first = await getSync(phone, { limit: 4 });
    const rotated = await call("/api/keys/rotate", { method: "POST", key: phone });
    expect(rotated.status).toBe(201);
    const successor = (rotated.body as { data: { secret: string } }).data.secret;
    const next = await getSync(successor, { limit: 4, cursor: first.body.data.next_cursor });
    expect(next.status).toBe(200);
    expect(next.body.data.changes).toEqual(walkOf(book1).slice(4, 8));
  });

  it("reads at the primary, whatever X-D1-Bookmark the client sends", async () => {
    const d1 = refusingBookmarksD1("never");
    const bookmark = "00000001-00000002-00004e2f-4f1e2b0d6a5f3c1e8b3a2f1d0c9b8a7f";
    const res = await callWithEnv<SyncBody>({ DB: d1 }, "/api/sync?limit=2", {
      key: agent1,
      headers: { "X-D1-Bookmark": bookmark },
    });
    expect(res.status).toBe(200);
    expect(d1.constraints).toEqual(["first-primary"]);
  });
});

describe("caught up", () => {
  it("no changes: the same cursor back, has_more false, an ETag; that ETag as If-None-Match: 304 with no body", async () => {
    const cursor = syncCursor(1, await lastSeq(1));
    const res = await getSync(agent1, { cursor });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { data: { changes: [], next_cursor: cursor, has_more: false } },
    });
    expect(rowsReadOf(res)).toBeLessThanOrEqual(10);
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    const again = await getSync(agent1, { cursor }, { "If-None-Match": etag });
    expect({ ...statusAndHeaders(again, "ETag"), text: again.text }).toEqual({ status: 304, ETag: etag, text: "" });
    expect(rowsReadOf(again)).toBeLessThanOrEqual(10);
    const otherTag = await getSync(agent1, { cursor }, { "If-None-Match": '"0000"' });
    expect(otherTag.status).toBe(200);
  });

  it("an answer that ends the changes carries the caught-up answer's ETag: the next check, nothing new, is a 304", async () => {
    const last = await lastSeq(1);
    const ending = await getSync(agent1, { cursor: syncCursor(1, last - 1) });
    expect({ status: ending.status, changes: ending.body.data.changes.length > 0 }).toEqual({
      status: 200,
      changes: true,
    });
    expect(ending.body.data).toMatchObject({ next_cursor: syncCursor(1, last), has_more: false });
    const caughtUp = await getSync(agent1, { cursor: syncCursor(1, last) });
    expect(ending.headers.get("ETag")).toBe(caughtUp.headers.get("ETag"));
    const check = await getSync(
      agent1,
      { cursor: ending.body.data.next_cursor },
      { "If-None-Match": ending.headers.get("ETag")! },
    );
    expect({ ...statusAndHeaders(check, "ETag"), text: check.text }).toEqual({
      status: 304,
      ETag: ending.headers.get("ETag"),
      text: "",
    });
  });
});

describe("round trips (Server-Timing's d1)", () => {
  const d1 = (res: { headers: Headers }) => workOf(res).d1;

  it.each([
    ["an agent-bound key", () => agent1, {}],
    ["a key bound to no agent, naming the book", () => key, { salesagent_id: 1 }],
  ])("%s: caught up 1; a walk's answer 2, 3 where the walk ends; a later answer 2", async (_, keyOf, book) => {
    const start = await lastSeq(1);
    const answers = [
      await getSync(keyOf(), { ...book, cursor: syncCursor(1, start) }),
      await getSync(keyOf(), { ...book, limit: 5 }),
      await getSync(keyOf(), { ...book, limit: 1000 }),
      await getSync(keyOf(), { ...book, cursor: syncCursor(1, 0) }),
    ];
    expect(answers.map((res) => [res.status, res.body.data.changes.length, res.body.data.has_more, d1(res)])).toEqual([
      [200, 0, false, 1],
      [200, 5, true, 2],
      [200, 35, false, 3],
      // The log from its start: each of the book's 35 records has one entry.
      [200, 35, false, 2],
    ]);
  });

  it("an unknown agent is the 422 from the first batch, before a 410 of its cursor and with no records", async () => {
    const unknown = validationEnvelope("/api/sync", [{ field: "salesagent_id", message: "names no sales agent" }]);
    await env.DB.prepare("INSERT INTO sync_books (book, purge_mark) VALUES (99, 5)").run();
    try {
      for (const cursor of [undefined, syncCursor(99, 0), syncCursor(99, 3, [1, 0, ""]), syncCursor(99, 9)]) {
        const res = await getSync(key, { salesagent_id: 99, cursor });
        expect({ status: res.status, body: res.body, d1: d1(res) }).toEqual({ status: 422, body: unknown, d1: 1 });
      }
    } finally {
      await env.DB.prepare("DELETE FROM sync_books").run();
    }
    // A cursor for an older record shape is answered without the sync's batches: the agent is read on its own.
    const older = await getSync(key, { salesagent_id: 99, cursor: syncCursor(99, 0, undefined, 0) });
    expect({ status: older.status, body: older.body, d1: d1(older) }).toEqual({ status: 422, body: unknown, d1: 1 });
  });
});

describe("410 SYNC_EXPIRED", () => {
  const recovery = "Sync again without a cursor, then drop every record that this sync did not deliver.";

  it("a cursor below its book's purge mark, and one made for an older record shape, each saying which", async () => {
    const start = await lastSeq(1);
    await env.DB.prepare("INSERT INTO sync_books (book, purge_mark) VALUES (1, ?)")
      .bind(start + 5)
      .run();
    try {
      for (const cursor of [syncCursor(1, start), syncCursor(1, start + 4, [3, 0, ""])]) {
        const res = await getSync(agent1, { cursor });
        expect({ status: res.status, body: res.body }).toEqual({
          status: 410,
          body: errorEnvelope(
            410,
            "SYNC_EXPIRED",
            `This cursor is below its book's purge mark: deletes that it would need were purged. ${recovery}`,
            "/api/sync",
          ),
        });
      }
      const atMark = await getSync(agent1, { cursor: syncCursor(1, start + 5) });
      expect(atMark.status).toBe(200);
      // A first sync never starts below the mark, though the book's entries are all older.
      const fresh = await getSync(agent1, { limit: 1000 });
      expect(fresh.body.data.next_cursor).toBe(syncCursor(1, start + 5));
    } finally {
      await env.DB.prepare("DELETE FROM sync_books").run();
    }
    const shape = await getSync(agent1, { cursor: syncCursor(1, start, undefined, 0) });
    expect({ status: shape.status, body: shape.body }).toEqual({
      status: 410,
      body: errorEnvelope(
        410,
        "SYNC_EXPIRED",
        `This cursor was made for an older shape of the records. ${recovery}`,
        "/api/sync",
      ),
    });
  });
});

describe("the typed client's sync helper", () => {
  it("fills a store with the book; asked again, gets a 304 and applies nothing", async () => {
    const { store, result, book } = await replicate(agent1, new MemorySyncStore(), { limit: 7 });
    expect(result).toEqual({ pages: 6, changes: 35, resynced: false, removed: 0 });
    expect(book).toEqual(book1);
    const cursor = store.position!.cursor;
    expect(store.position).toEqual({ cursor, etag: expect.stringMatching(/^"[0-9a-f]{40}"$/) });
    // The last answer was caught up: its ETag goes with the cursor, and the service answers 304.
    const again = await replicate(agent1, store);
    expect(again.result).toEqual({ pages: 0, changes: 0, resynced: false, removed: 0 });
    expect(store.position!.cursor).toBe(cursor);
    expect(again.book).toEqual(book1);
  });

  it("after a 410, syncs again from no cursor and drops what that sync did not deliver", async () => {
    const { store } = await replicate(agent1);
    const stale = book1.customer.get(4) as never;
    await store.put("customer", 999, stale);
    await store.put("order", 998, book1.order.get(101) as never);
    const start = await lastSeq(1);
    await env.DB.prepare("INSERT INTO sync_books (book, purge_mark) VALUES (1, ?)")
      .bind(start + 1)
      .run();
    try {
      const { result, book } = await replicate(agent1, store, { limit: 10 });
      expect(result).toEqual({ pages: 4, changes: 35, resynced: true, removed: 2 });
      expect(book).toEqual(book1);
      // The last answer ended the changes: its ETag (the caught-up answer's) goes with the cursor.
      expect(store.position).toEqual({
        cursor: syncCursor(1, start + 1),
        etag: expect.stringMatching(/^"[0-9a-f]{40}"$/),
      });
    } finally {
      await env.DB.prepare("DELETE FROM sync_books").run();
    }
  });

  it("after a first sync cut short before its cursor was stored, walks again and drops what it did not deliver", async () => {
    const store = new MemorySyncStore();
    await store.put("customer", 999, book1.customer.get(4) as never);
    await store.put("order", 101, book1.order.get(101) as never);
    const { result, book } = await replicate(agent1, store, { limit: 10 });
    expect(result).toEqual({ pages: 4, changes: 35, resynced: false, removed: 1 });
    expect(book).toEqual(book1);
    expect(store.position).toEqual({
      cursor: syncCursor(1, await lastSeq(1)),
      etag: expect.stringMatching(/^"[0-9a-f]{40}"$/),
    });
  });

  it("starts such a walk over when it is cut short itself: what it delivered was known in memory only", async () => {
    const store = new MemorySyncStore();
    await store.put("customer", 999, book1.customer.get(4) as never);
    const put = store.put.bind(store);
    let puts = 0;
    store.put = async (type, id, record) => {
      if (++puts === 15) throw new Error("app killed");
      await put(type, id, record);
    };
    await expect(replicate(agent1, store, { limit: 10 })).rejects.toThrow("app killed");
    expect(store.position).toEqual({ cursor: expect.any(String), resync: true });
    store.put = put;
    const { result, book } = await replicate(agent1, store, { limit: 10 });
    expect(result).toEqual({ pages: 4, changes: 35, resynced: false, removed: 1 });
    expect(book).toEqual(book1);
  });

  it("hands each answer with its cursor to the store's applyAnswer; a failed one leaves the last applied", async () => {
    const store = new MemorySyncStore();
    const answers: { changes: Change[]; position: SyncPosition }[] = [];
    const applyAnswer = store.applyAnswer.bind(store);
    store.applyAnswer = async (changes, position) => {
      answers.push({ changes: [...changes], position });
      return applyAnswer(changes, position);
    };
    const put = store.put.bind(store);
    let puts = 0;
    store.put = async (kind, id, record) => {
      if (++puts === 25) throw new Error("transaction aborted");
      return put(kind, id, record);
    };
    await expect(replicate(agent1, store, { limit: 10 })).rejects.toThrow("transaction aborted");
    expect(answers.map((a) => a.changes.length)).toEqual([10, 10, 10]);
    // The first two answers whole and nothing of the third, at the second's cursor.
    expect(store.position).toEqual(answers[1]!.position);
    const applied = new MemorySyncStore();
    for (const change of answers.slice(0, 2).flatMap((a) => a.changes)) await applyChange(applied, change);
    expect(sortedBook(store.records)).toEqual(sortedBook(applied.records));
    expect(store.records.customer.size + store.records.order.size).toBe(20);
  });

  it("with a store that has no applyAnswer, puts each change and then the answer's cursor", async () => {
    const memory = new MemorySyncStore();
    const calls: string[] = [];
    const plain: SyncStore = {
      get: (kind, id) => memory.get(kind, id),
      put: (kind, id, record) => {
        calls.push("put");
        return memory.put(kind, id, record);
      },
      delete: (kind, id) => memory.delete(kind, id),
      listIds: (kind) => memory.listIds(kind),
      getCursor: () => memory.getCursor(),
      putCursor: (position) => {
        calls.push("cursor");
        return memory.putCursor(position);
      },
      clear: () => memory.clear(),
    };
    expect(await sync(client(agent1), plain, { limit: 20 })).toEqual({
      pages: 2,
      changes: 35,
      resynced: false,
      removed: 0,
    });
    expect(sortedBook(memory.records)).toEqual(book1);
    expect(calls).toEqual([...Array(20).fill("put"), "cursor", ...Array(15).fill("put"), "cursor"]);
  });

  it("a customer's delete removes its orders from the copy, and no other", async () => {
    const { store } = await replicate(agent1);
    const customerId = book1.order.get(101)!.customer.id;
    const ordersOf = (id: number) => [...store.records.order.values()].filter((o) => o.customer.id === id).length;
    expect(ordersOf(customerId)).toBeGreaterThan(0);
    const others = store.records.order.size - ordersOf(customerId);
    await store.applyAnswer([{ type: "customer", id: customerId, op: "delete", data: null }], { cursor: "c" });
    expect(store.records.customer.has(customerId)).toBe(false);
    expect(ordersOf(customerId)).toBe(0);
    expect(store.records.order.size).toBe(others);
    expect(store.records.customer.size).toBe(book1.customer.size - 1);
  });

  it("a 401 rejects with the service's error and leaves the copy at its cursor; another key of the agent resumes", async () => {
    const { store } = await replicate(agent1, new MemorySyncStore(), { limit: 1000 });
    const position = store.position;
    await expect(replicate("sk_test_0000000000000000000000000000000000", store)).rejects.toMatchObject({
      name: "SyncError",
      status: 401,
      message: "Invalid API key: no such key",
      error: { code: "AUTHENTICATION_ERROR", description: "Invalid API key: no such key" },
    });
    expect(store.position).toBe(position);
    expect(sortedBook(store.records)).toEqual(book1);
    const newKey = (await makeKey({ name: "Asha's new phone", agentId: 1 })).secret;
    // From the same cursor and its ETag: one 304, nothing new.
    const { result, book } = await replicate(newKey, store);
    expect(result).toEqual({ pages: 0, changes: 0, resynced: false, removed: 0 });
    expect(store.position!.cursor).toBe(position!.cursor);
    expect(book).toEqual(book1);
  });

  it("names the book for a key bound to none, and throws on an answer it cannot apply", async () => {
    const { book } = await replicate(key, new MemorySyncStore(), { salesagentId: 1 });
    expect(book).toEqual(book1);
    await expect(replicate(key)).rejects.toMatchObject({ name: "SyncError", status: 422 });
  });
});
