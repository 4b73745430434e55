// The sync change log as the record writers feed it (docs/specification.md section 8, "The change
// log"): the importer and POST /customers/create, through the real D1 and its triggers.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { importDataset, type AddressRecord, type Dataset } from "../../src/import/importer.ts";
import { createBody } from "../fixtures/create-body.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { call } from "../helpers/http.ts";
import {
  BOOKS_LOGGED,
  books,
  emptyBooks,
  type Entry,
  importEdited,
  type Logged,
  log,
  loggedSince,
  order,
  deleted,
  upserted,
} from "./sync.log.helpers.ts";

beforeEach(emptyBooks);

describe("an import", () => {
  it("logs each record it adds in its customer's agent's book, and none of a customer without an agent", async () => {
    const summary = await importDataset(env.DB, books());
    expect(await loggedSince([])).toEqual(BOOKS_LOGGED);
    expect(summary.rowsWritten).toBeGreaterThan(0);
  });

  it("of the same file again writes no row and leaves the log as it was", async () => {
    await importDataset(env.DB, books());
    const before = await log();
    const again = await importDataset(env.DB, books());
    expect(again.rowsWritten).toBe(0);
    expect(await log()).toEqual(before);
  });

  it("that changes one order in a hundred writes only that order's rows", async () => {
    const many = books();
    many.orders = Array.from({ length: 100 }, (_, i) => order(1000 + i, 1));
    const first = await importDataset(env.DB, many);
    const before = await log();
    many.orders[50]!.billable_amount = 99;
    const second = await importDataset(env.DB, many);
    expect(await loggedSince(before)).toEqual(upserted(1, "order 1050"));
    // D1's count for the order's row and its log entry written anew, against hundreds for the file.
    expect({ first: first.rowsWritten > 100 * 4, second: second.rowsWritten }).toEqual({ first: true, second: 8 });
  });
});

type Edit = (d: Dataset) => void;
const customer = (d: Dataset, id: number) => d.customers!.find((c) => c.id === id)!;
const orderOf = (d: Dataset, id: number) => d.orders!.find((o) => o.id === id)!;

// What a re-import of books() with one edit logs: exactly the records whose answers change.
const EDITS: [string, Edit, Entry[]][] = [
  [
    "a customer's name: the customer and its orders, which show it",
    (d) => (customer(d, 1).display_name = "Renamed"),
    upserted(1, "customer 1", "order 11", "order 12"),
  ],
  ["a customer's status: the customer only", (d) => (customer(d, 1).status = "Inactive"), upserted(1, "customer 1")],
  [
    "a customer's address line: the customer and its orders",
    (d) => ((customer(d, 1).address as AddressRecord).addressline2 = "Floor 2"),
    upserted(1, "customer 1", "order 11", "order 12"),
  ],
  ["an address removed", (d) => (customer(d, 3).address = null), upserted(2, "customer 3", "order 13")],
  [
    "an address added to a customer without orders",
    (d) => (customer(d, 2).address = { addressline1: "2 Main Road", addressline2: "", area_id: 1, postalcode_id: 1 }),
    upserted(1, "customer 2"),
  ],
  ["an order's amount", (d) => (orderOf(d, 13).billable_amount = 1), upserted(2, "order 13")],
  ["an order's delivery agent", (d) => (orderOf(d, 15).deliveryagent_id = 1), upserted(2, "order 15")],
  ["a line's quantity", (d) => (orderOf(d, 11).items![1]!.quantity = 3), upserted(1, "order 11")],
  ["a line removed", (d) => orderOf(d, 11).items!.pop(), upserted(1, "order 11")],
  [
    "a new last status",
    (d) => orderOf(d, 12).statuses!.push({ name: "Delivered", at: "2026-03-15T10:00:00Z" }),
    upserted(1, "order 12"),
  ],
  ["the last status renamed", (d) => (orderOf(d, 12).statuses![1]!.name = "Delivered"), upserted(1, "order 12")],
  ["the last status removed", (d) => orderOf(d, 12).statuses!.pop(), upserted(1, "order 12")],
  [
    "the last status moved before another, which is the last now",
    (d) => (orderOf(d, 12).statuses![1]!.at = "2026-03-14T08:00:00Z"),
    upserted(1, "order 12"),
  ],
  ["an earlier status changed: nothing", (d) => (orderOf(d, 12).statuses![0]!.at = "2026-03-14T08:00:00Z"), []],
  [
    "a status added that is not the last: nothing",
    (d) => orderOf(d, 12).statuses!.push({ name: "Placed", at: "2026-03-13T09:00:00Z" }),
    [],
  ],
  ["an invoice's tax", (d) => (orderOf(d, 11).invoices![0]!.cgst = 5), upserted(1, "order 11")],
  ["an invoice removed", (d) => (orderOf(d, 11).invoices = []), upserted(1, "order 11")],
  [
    "an invoice added",
    (d) => orderOf(d, 15).invoices!.push({ ...orderOf(d, 11).invoices![0]!, id: 115, invoice_number: "INV-115" }),
    upserted(2, "order 15"),
  ],
  [
    "records in no book: nothing",
    (d) => {
      customer(d, 4).display_name = "Renamed";
      orderOf(d, 14).billable_amount = 1;
    },
    [],
  ],
  ["a sales agent's pincodes, which no record shows: nothing", (d) => (d.sales_agents![0]!.postalcode_ids = [1]), []],
];

describe("a re-import that edits", () => {
  it.each(EDITS)("%s", async (_name, edit, expected) => {
    expect((await importEdited(edit)).logged).toEqual(expected);
    // The log keeps one entry per record and book.
    expect((await log()).length).toBe(BOOKS_LOGGED.length);
  });
});

describe("a move", () => {
  it("of a customer to another agent: deletes for it and its orders in the old book, upserts in the new", async () => {
    const { logged } = await importEdited((moved) => (customer(moved, 1).salesagent_id = 2));
    expect(logged).toEqual([
      ...deleted(1, "customer 1", "order 11", "order 12"),
      ...upserted(2, "customer 1", "order 11", "order 12"),
    ]);
  });

  it("of a customer to no agent: deletes in the old book only; back to an agent: upserts again", async () => {
    const { logged } = await importEdited((moved) => (customer(moved, 3).salesagent_id = null));
    expect(logged).toEqual(deleted(2, "customer 3", "order 13"));
    const between = await log();
    await importDataset(env.DB, books());
    expect(await loggedSince(between)).toEqual(upserted(2, "customer 3", "order 13"));
    expect((await log()).map((l) => l.entry)).toEqual([
      ...BOOKS_LOGGED.filter(([, , id]) => id !== 3 && id !== 13),
      ...upserted(2, "customer 3", "order 13"),
    ]);
  });

  it("of an order to a customer of another book: a delete in the old book, an upsert in the new", async () => {
    const { logged } = await importEdited((moved) => (orderOf(moved, 13).customer_id = 2));
    expect(logged).toEqual([...deleted(2, "order 13"), ...upserted(1, "order 13")]);
  });
});

/** Imports books(), then runs `script`'s statements in one batch: returns the log as it was before them. */
async function sqlAfterImport(script: string): Promise<Logged[]> {
  await importDataset(env.DB, books());
  const before = await log();
  const statements = script.split(";").filter((sql) => sql.trim() !== "");
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
  return before;
}

describe("a delete", () => {
  it("of a customer or an order (no write path deletes them yet) is a delete in its book", async () => {
    const before = await sqlAfterImport(`
      DELETE FROM invoices WHERE order_id = 13;
      DELETE FROM order_statuses WHERE order_id = 13;
      DELETE FROM order_items WHERE order_id = 13;
      DELETE FROM orders WHERE id = 13;
      DELETE FROM customer_addresses WHERE customer_id = 3;
      DELETE FROM customers WHERE id = 3;
    `);
    // The marks of the lines, statuses and address went before them: the deletes replaced them.
    expect(await loggedSince(before)).toEqual(deleted(2, "order 13", "customer 3"));
  });
});

describe("an update that changes nothing shown", () => {
  it("logs nothing: the origin, or fields set to the values they hold", async () => {
    const before = await sqlAfterImport(`
      UPDATE customers SET origin = 'api' WHERE id = 1;
      UPDATE customers SET display_name = display_name, email = email WHERE id = 3;
      UPDATE orders SET billable_amount = billable_amount, deliveryagent_id = deliveryagent_id;
      UPDATE order_items SET price = price;
      UPDATE customer_addresses SET area_id = area_id;
    `);
    expect(await log()).toEqual(before);
  });
});

describe("compaction", () => {
  it("keeps one entry for a record changed many times: the latest, after every other", async () => {
    await importDataset(env.DB, books());
    for (const name of ["One", "Two", "Three"]) {
      const edited = books();
      customer(edited, 3).status = "Inactive";
      customer(edited, 3).contact_person_name = name;
      await importDataset(env.DB, edited);
    }
    const entries = (await log()).map((l) => l.entry);
    expect(entries).toEqual([
      ...BOOKS_LOGGED.filter(([, kind, id]) => !(kind === "customer" && id === 3) && id !== 13),
      ...upserted(2, "customer 3", "order 13"),
    ]);
  });
});

describe("POST /customers/create", () => {
  it("logs the new customer once, in its agent's book", async () => {
    await importDataset(env.DB, books());
    const before = await log();
    const { secret } = await makeKey();
    const res = await call("/api/customers/create", {
      method: "POST",
      key: secret,
      body: createBody("9712345678", { salesagent_id: 2 }),
    });
    expect(res.status).toBe(201);
    expect(await loggedSince(before)).toEqual([[2, "customer", res.body.data.id, 0]]);
  });
});
