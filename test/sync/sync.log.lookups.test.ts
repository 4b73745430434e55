// The importer's marks for lookups that records show (docs/specification.md section 8, "The change
// log"): a changed shown field marks every record that shows it, and no other.
import { beforeEach, describe, expect, it } from "vitest";
import type { Dataset } from "../../src/import/importer.ts";
import { BOOKS_LOGGED, emptyBooks, type Entry, importEdited, log, upserted } from "./sync.log.helpers.ts";

beforeEach(emptyBooks);

type Edit = (d: Dataset) => void;

// books(): customers 1 (area 1, Mumbai, postal code 1) and 2 (no address) in book 1 with orders 11
// (sales agent 1, delivery agent 1, products 1 and 2) and 12 (sales agent 3, product 3); customers 3
// (area 2, Bengaluru, Karnataka, postal code 2) and 5 (area 3, Mumbai, postal code 3) in book 2 with
// orders 13 (sales agent 2, product 1) and 15 (sales agent 2, product 2). Customer 4 (area 3) and
// its order 14 (sales agent 1, product 1) are in no book.
const MUMBAI: Entry[] = [
  ...upserted(1, "customer 1"),
  ...upserted(2, "customer 5"),
  ...upserted(1, "order 11", "order 12"),
  ...upserted(2, "order 15"),
];
const KORAMANGALA: Entry[] = upserted(2, "customer 3", "order 13");

const RENAMES: [string, Edit, Entry[]][] = [
  [
    "a city renamed: the customers with an address in it and their orders",
    (d) => (d.cities![0]!.name = "Bombay"),
    MUMBAI,
  ],
  ["a state renamed", (d) => (d.states![1]!.name = "Karnataka State"), KORAMANGALA],
  ["a city moved to another state", (d) => (d.cities![1]!.state_id = 1), KORAMANGALA],
  ["an area's code", (d) => (d.areas![2]!.area_code = "BW2"), upserted(2, "customer 5", "order 15")],
  ["a postal code's code", (d) => (d.postal_codes![1]!.code = "560035"), KORAMANGALA],
  [
    "a sales agent renamed: the orders whose agent it is (a customer shows no agent)",
    (d) => (d.sales_agents![2]!.last_name = "Iyer-Rao"),
    upserted(1, "order 12"),
  ],
  ["a delivery agent's phone", (d) => (d.delivery_agents![0]!.phone_number = "9123456781"), upserted(1, "order 11")],
  [
    "a product renamed: the orders with a line of it",
    (d) => (d.products![0]!.name = "Tea 500g"),
    [...upserted(1, "order 11"), ...upserted(2, "order 13")],
  ],
  ["a sales agent's pincodes, which no record shows: nothing", (d) => (d.sales_agents![0]!.postalcode_ids = [3]), []],
];

describe("a lookup changed by an import", () => {
  it.each(RENAMES)("%s", async (_name, edit, expected) => {
    const { logged, summary } = await importEdited(edit);
    expect(logged).toEqual(expected);
    expect((await log()).length).toBe(BOOKS_LOGGED.length);
    if (expected.length === 0) expect(summary.rowsWritten).toBeGreaterThan(0);
  });

  it("marks the same records whatever the chunk size, each once", async () => {
    const { logged } = await importEdited((d) => (d.cities![0]!.name = "Bombay"), { markChunk: 1 });
    expect(logged).toEqual(MUMBAI);
  });

  it("marks a record that an import both edits and shows a renamed lookup to once", async () => {
    const { logged } = await importEdited(
      (d) => {
        d.cities![0]!.name = "Bombay";
        d.customers![4]!.display_name = "Renamed";
      },
      { markChunk: 2 },
    );
    // Customer 5 and its order 15 by the triggers as the file writes them; the rest by the marks.
    expect(logged).toEqual([
      ...upserted(2, "customer 5", "order 15"),
      ...upserted(1, "customer 1", "order 11", "order 12"),
    ]);
  });

  it("written unchanged marks nothing and writes no row", async () => {
    const { logged, summary } = await importEdited((lookups) => {
      delete lookups.customers;
      delete lookups.orders;
    });
    expect({ logged, rowsWritten: summary.rowsWritten }).toEqual({
      logged: [],
      rowsWritten: 0,
    });
  });
});
