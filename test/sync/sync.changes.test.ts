// GET /sync after a first sync (docs/specification.md section 8): a create, an order before its newer
// customer, compaction, moves both ways, a re-import that changes nothing, a lookup rename, and the
// cost after a record changed 1,000 times. Writes go through the API and the importer, as in use.
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importDataset, type Dataset } from "../../src/import/importer.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { call } from "../helpers/http.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";
import { createBody } from "../fixtures/create-body.ts";
import { books, emptyBooks } from "./sync.log.helpers.ts";
import {
  bookFromListings,
  expectWithinCost,
  getSync,
  lastSeq,
  replicate,
  syncCursor,
  type SyncResult,
} from "./sync.helpers.ts";

let agent1: string;
let agent2: string;
beforeAll(async () => {
  await importDataset(env.DB, books());
  agent1 = (await makeKey({ name: "Asha's app", agentId: 1 })).secret;
  agent2 = (await makeKey({ name: "Vikram's app", agentId: 2 })).secret;
});

/** books() imported with these edits. */
async function importBooks(...edits: ((d: Dataset) => void)[]) {
  const d = books();
  for (const edit of edits) edit(d);
  await importDataset(env.DB, d);
}

let cursor1: string;
let cursor2: string;
beforeEach(async () => {
  clearIsolateCaches();
  await emptyBooks();
  await importBooks();
  cursor1 = syncCursor(1, await lastSeq(1));
  cursor2 = syncCursor(2, await lastSeq(2));
});

/** The next answer for a book from its cursor; the cursor moves on. */
async function next(key: string, which: 1 | 2, limit?: number): Promise<SyncResult> {
  const res = await getSync(key, { cursor: which === 1 ? cursor1 : cursor2, limit });
  expect(res.status).toBe(200);
  expectWithinCost(res);
  // The body spliced from each change's own text is still plain JSON.stringify output (deletes too).
  expect(res.text).toBe(JSON.stringify(res.body));
  if (which === 1) cursor1 = res.body.data.next_cursor;
  else cursor2 = res.body.data.next_cursor;
  return res;
}

const ids = (res: SyncResult) => res.body.data.changes.map((c) => [c.type, c.id, c.op]);

describe("after a first sync", () => {
  it("a customer created through the API comes as its upsert, exactly the listing's item", async () => {
    const created = await call("/api/customers/create", {
      method: "POST",
      key: agent1,
      body: createBody("9812300001"),
    });
    expect(created.status).toBe(201);
    const res = await next(agent1, 1);
    const listed = await bookFromListings(agent1);
    expect(res.body.data).toEqual({
      changes: [
        { type: "customer", id: created.body.data.id, op: "upsert", data: listed.customer.get(created.body.data.id) },
      ],
      next_cursor: syncCursor(1, await lastSeq(1)),
      has_more: false,
    });
    const caughtUp = await next(agent1, 1);
    expect(caughtUp.body.data).toEqual({ changes: [], next_cursor: cursor1, has_more: false });
    expect(rowsReadOf(caughtUp)).toBeLessThanOrEqual(10);
  });

  it("an order changed before its customer: the customer's upsert first, and not again in that answer", async () => {
    await importBooks((d) => (d.orders![0]!.billable_amount = 90));
    // A customer's status is shown by the customer's record only: its orders are not marked again.
    await importBooks(
      (d) => (d.orders![0]!.billable_amount = 90),
      (d) => (d.customers![0]!.status = "Inactive"),
    );
    const res = await next(agent1, 1);
    const listed = await bookFromListings(agent1);
    expect(res.body.data).toEqual({
      changes: [
        { type: "customer", id: 1, op: "upsert", data: listed.customer.get(1) },
        { type: "order", id: 11, op: "upsert", data: listed.order.get(11) },
      ],
      next_cursor: syncCursor(1, await lastSeq(1)),
      has_more: false,
    });
  });

  it("at limit 1, such an order still comes with its customer: an order never comes before it", async () => {
    await importBooks((d) => (d.orders![0]!.billable_amount = 90));
    // A customer's status is shown by the customer's record only: its orders are not marked again.
    await importBooks(
      (d) => (d.orders![0]!.billable_amount = 90),
      (d) => (d.customers![0]!.status = "Inactive"),
    );
    const res = await next(agent1, 1, 1);
    expect(ids(res)).toEqual([
      ["customer", 1, "upsert"],
      ["order", 11, "upsert"],
    ]);
    expect(res.body.data.has_more).toBe(true);
    // The customer's own entry is later than the order's: the next answer sends it again (harmless).
    const rest = await next(agent1, 1, 1);
    expect({ changes: ids(rest), has_more: rest.body.data.has_more }).toEqual({
      changes: [["customer", 1, "upsert"]],
      has_more: false,
    });
  });

  it("a record changed many times comes once, as it is now", async () => {
    for (const name of ["A", "B", "C"]) await importBooks((d) => (d.customers![1]!.company_name = `Company 2 ${name}`));
    const res = await next(agent1, 1);
    expect(ids(res)).toEqual([["customer", 2, "upsert"]]);
    expect(res.body.data.changes[0]!.data).toMatchObject({ company_name: "Company 2 C" });
  });

  it("a customer moved to another agent: deletes in the old book, upserts (customer first) in the new; and back", async () => {
    await importBooks((d) => (d.customers![0]!.salesagent_id = 2));
    const left = await next(agent1, 1);
    expect(left.body.data.changes.map((c) => [c.type, c.id, c.op, c.data])).toEqual(
      [
        ["customer", 1, "delete", null],
        ["order", 11, "delete", null],
        ["order", 12, "delete", null],
      ].sort((a, b) => (a[0] === b[0] ? 0 : a[0] === "customer" ? -1 : 1)),
    );
    const joined = await next(agent2, 2);
    expect(ids(joined).sort()).toEqual([
      ["customer", 1, "upsert"],
      ["order", 11, "upsert"],
      ["order", 12, "upsert"],
    ]);
    expect(joined.body.data.changes[0]).toMatchObject({ type: "customer", id: 1 });

    await importBooks();
    expect(ids(await next(agent2, 2)).sort()).toEqual([
      ["customer", 1, "delete"],
      ["order", 11, "delete"],
      ["order", 12, "delete"],
    ]);
    const back = await next(agent1, 1);
    expect(back.body.data.changes[0]).toMatchObject({ type: "customer", id: 1, op: "upsert" });
    expect(ids(back).sort()).toEqual([
      ["customer", 1, "upsert"],
      ["order", 11, "upsert"],
      ["order", 12, "upsert"],
    ]);
  });

  it("an order moved to another agent's customer follows that customer", async () => {
    await importBooks((d) => (d.orders![1]!.customer_id = 3));
    expect(ids(await next(agent1, 1))).toEqual([["order", 12, "delete"]]);
    const joined = await next(agent2, 2);
    expect(ids(joined)).toEqual([["order", 12, "upsert"]]);
    expect(joined.body.data.changes[0]!.data).toMatchObject({ customer: { id: 3 } });
  });

  it("a re-import of the same file answers nothing: the same cursor back", async () => {
    const before = cursor1;
    await importBooks();
    const res = await next(agent1, 1);
    expect(res.body.data).toEqual({ changes: [], next_cursor: before, has_more: false });
  });

  it("a renamed city: every record that shows it comes again, with the new name", async () => {
    await importBooks((d) => (d.cities![0]!.name = "Bombay"));
    const res = await next(agent1, 1);
    expect(ids(res).sort()).toEqual([
      ["customer", 1, "upsert"],
      ["order", 11, "upsert"],
      ["order", 12, "upsert"],
    ]);
    for (const change of res.body.data.changes) expect(JSON.stringify(change.data)).toContain('"name":"Bombay"');
    const listed = await bookFromListings(agent1);
    for (const change of res.body.data.changes) expect(change.data).toEqual(listed[change.type].get(change.id));
    expect(ids(await next(agent2, 2)).sort()).toEqual([
      ["customer", 5, "upsert"],
      ["order", 15, "upsert"],
    ]);
  });

  it("at limit 1, reads the records of its one change only, not those of the entry it looked ahead to", async () => {
    await importBooks((d) => (d.cities![0]!.name = "Bombay"));
    // next() holds each answer to the cost of the changes it holds.
    const answers = [await next(agent1, 1, 1), await next(agent1, 1, 1), await next(agent1, 1, 1)];
    expect(answers.map((res) => [ids(res), res.body.data.has_more])).toEqual([
      [[["customer", 1, "upsert"]], true],
      [[["order", 11, "upsert"]], true],
      [[["order", 12, "upsert"]], false],
    ]);
  });

  it("an answer ends before the record that would take its body past 1,000,000 bytes", async () => {
    const wide = "W".repeat(150_000);
    await importBooks((d) => {
      for (let id = 30; id < 38; id++)
        d.customers!.push({
          ...d.customers![0]!,
          id,
          company_name: wide,
          display_name: wide,
          contactperson_number: `97100000${id}`,
          address: null,
        });
    });
    const sizes: number[] = [];
    const received: number[] = [];
    for (let more = true; more;) {
      const res = await next(agent1, 1);
      sizes.push(new TextEncoder().encode(res.text).length);
      received.push(...res.body.data.changes.map((c) => c.id));
      more = res.body.data.has_more;
    }
    expect(received).toEqual([30, 31, 32, 33, 34, 35, 36, 37]);
    expect(sizes.length).toBe(3);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(1_000_000);
  });

  it("a record changed 1,000 times: one change, within the cost; replicas equal the listings", async () => {
    const { store } = await replicate(agent1);
    const updates = Array.from({ length: 1000 }, (_, i) =>
      env.DB.prepare("UPDATE customers SET approval = ? WHERE id = 1").bind(i % 2 ? "rejected" : "pending"),
    );
    await env.DB.batch(updates);
    const res = await next(agent1, 1);
    expect(ids(res)).toEqual([["customer", 1, "upsert"]]);
    expect(res.body.data.changes[0]!.data).toMatchObject({ approval: "rejected" });
    const { book } = await replicate(agent1, store);
    expect(book).toEqual(await bookFromListings(agent1));
  });
});
