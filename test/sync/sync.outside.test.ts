// Nothing outside the book (docs/specification.md section 8): a cursor, made here or forged, reaches no
// record of another book, and no id, date or count of one, in the answer or its next_cursor. A walk's
// position that names a customer outside the book (another agent's, no agent's, none at all, or one
// moved away in the middle of a first sync) resumes after it, reading nothing of it.
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Dataset, importDataset } from "../../src/import/importer.ts";
import { decodeSyncCursor } from "../../src/sync/sync.cursor.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { customerRecord } from "../fixtures/dataset.ts";
import { books, emptyBooks, order } from "./sync.log.helpers.ts";
import {
  type Book,
  bookFromListings,
  expectWithinCost,
  getSync,
  lastSeq,
  sortedBook,
  type SyncResult,
  syncCursor,
} from "./sync.helpers.ts";

/** Customer 1's orders besides 11 and 12: 200 to 239, dated after them. */
const MORE_ORDERS = Array.from({ length: 40 }, (_, i) => 200 + i);

/**
 * books() (agent 1: customers 1 and 2, orders 11 and 12; agent 2: customers 3 and 5, orders 13 and 15;
 * customer 4 and its order 14 in no book), with agent 1's customer 6 and its order 16, and 40 more
 * orders of customer 1.
 */
function dataset(edit: (d: Dataset) => void = () => {}): Dataset {
  const d = books();
  d.customers!.push(customerRecord(6));
  d.orders!.push(order(16, 6), ...MORE_ORDERS.map((id) => order(id, 1, { date: "2026-03-20" })));
  edit(d);
  return d;
}

let agent1: string;
let start: number;
beforeAll(async () => {
  await importDataset(env.DB, dataset());
  agent1 = (await makeKey({ name: "Asha's app", agentId: 1, scopes: ["read"] })).secret;
});
beforeEach(async () => {
  clearIsolateCaches();
  await emptyBooks();
  await importDataset(env.DB, dataset());
  start = await lastSeq(1);
});

/** The answer, held to the cost of the records it carries. */
async function sync(cursor: string | undefined, limit: number): Promise<SyncResult> {
  const res = await getSync(agent1, { cursor, limit });
  expect(res.status).toBe(200);
  expectWithinCost(res);
  return res;
}

/** The ids that a cursor names: its walk's customer and order. */
function namedIds(cursor: string): number[] {
  const position = decodeSyncCursor(cursor)!.position;
  return position.kind === "walk" ? [position.customer, position.order] : [];
}

describe("a forged walk position naming a customer outside the book", () => {
  it.each([
    ["another agent's customer", [3, 0, ""]],
    ["another agent's customer, before its first order", [3, 1, "2000-01-01"]],
    ["another agent's customer, at its order", [3, 13, "2026-03-14"]],
    ["a customer of no agent, before its order", [4, 1, "2000-01-01"]],
  ] as const)("%s: resumes at the book's next customer, naming nothing of it", async (_, walk) => {
    const res = await sync(syncCursor(1, start, [...walk]), 1);
    const listed = await bookFromListings(agent1);
    expect(res.body.data).toEqual({
      changes: [{ type: "customer", id: 6, op: "upsert", data: listed.customer.get(6) }],
      next_cursor: syncCursor(1, start, [6, 0, ""]),
      has_more: true,
    });
  });

  it("an unknown customer past the book's last: the walk is over, and the log after its start is empty", async () => {
    const res = await sync(syncCursor(1, start, [99, 1, "2000-01-01"]), 1);
    expect(res.body.data).toEqual({ changes: [], next_cursor: syncCursor(1, start), has_more: false });
  });

  it("walked at limit 1 to its end: the book's records after it, every cursor naming records of the book only", async () => {
    const listed = await bookFromListings(agent1);
    const cursors: string[] = [];
    const changes = [];
    let cursor = syncCursor(1, start, [3, 1, "2000-01-01"]);
    for (let more = true; more;) {
      const res = await sync(cursor, 1);
      changes.push(...res.body.data.changes);
      cursor = res.body.data.next_cursor;
      cursors.push(cursor);
      more = res.body.data.has_more;
    }
    expect(changes).toEqual([
      { type: "customer", id: 6, op: "upsert", data: listed.customer.get(6) },
      { type: "order", id: 16, op: "upsert", data: listed.order.get(16) },
    ]);
    expect(cursors).toEqual([
      syncCursor(1, start, [6, 0, ""]),
      // The walk ends with order 16; the log after its start, still to be read, is empty.
      syncCursor(1, start),
      syncCursor(1, start),
    ]);
    const inBook = new Set([0, ...listed.customer.keys(), ...listed.order.keys()]);
    expect(cursors.flatMap(namedIds).filter((id) => !inBook.has(id))).toEqual([]);
  });
});

describe("a customer moved out of the book in the middle of a first sync", () => {
  it("the walk resumes after it, reading none of its orders; the copy ends equal to the book", async () => {
    const first = await sync(undefined, 3);
    expect(first.body.data.changes.map((c) => [c.type, c.id])).toEqual([
      ["customer", 1],
      ["order", 11],
      ["order", 12],
    ]);
    expect(first.body.data.next_cursor).toBe(syncCursor(1, start, [1, 12, "2026-03-14"]));
    // An import gives customer 1 (and its 42 orders) to agent 2.
    await importDataset(
      env.DB,
      dataset((d) => (d.customers!.find((c) => c.id === 1)!.salesagent_id = 2)),
    );

    const copy: Book = { customer: new Map(), order: new Map() };
    const apply = (res: SyncResult) => {
      for (const change of res.body.data.changes) {
        if (change.op === "delete") copy[change.type].delete(change.id);
        else if (change.type === "customer") copy.customer.set(change.id, change.data!);
        else copy.order.set(change.id, change.data!);
      }
    };
    apply(first);
    const next = await sync(first.body.data.next_cursor, 10);
    expect(next.body.data.changes.slice(0, 4).map((c) => [c.type, c.id, c.op])).toEqual([
      ["customer", 2, "upsert"],
      ["customer", 6, "upsert"],
      ["order", 16, "upsert"],
      ["customer", 1, "delete"],
    ]);
    apply(next);
    for (let res = next; res.body.data.has_more;) {
      res = await sync(res.body.data.next_cursor, 10);
      apply(res);
    }
    expect(sortedBook(copy)).toEqual(sortedBook(await bookFromListings(agent1)));
  });
});
