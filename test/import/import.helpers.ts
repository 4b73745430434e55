// The importer tests' shared parts: the tables an import writes, their rows, a small valid dataset
// (from the dataset fixture's records) and the check that a rejected import changed nothing.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ImportError, importDataset, type Dataset, type OrderRecord } from "../../src/import/importer.ts";
import { dataset } from "../fixtures/dataset.ts";
import { IMPORTED_TABLES as TABLES } from "../fixtures/import-tables.ts";

type Rows = Record<string, unknown>[];

export async function rows(table: string): Promise<Rows> {
  return (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all<Record<string, unknown>>()).results;
}

export async function snapshot(): Promise<Record<string, Rows>> {
  return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await rows(t)])));
}

export async function stagingTables(): Promise<string[]> {
  const res = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'import%'").all<{
    name: string;
  }>();
  return res.results.map((r) => r.name);
}

/** Empties every table an import writes: each import test starts from empty tables (storage is shared by the tests of one file). */
export async function emptyTables(): Promise<void> {
  await env.DB.batch([...TABLES].reverse().map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
}

/**
 * An order to import: the fields of the fixture's first order (101) under this id and order_no,
 * with no delivery agent, two lines, two statuses and one invoice (a copy of the fixture's 201).
 */
export function order(id: number, overrides: Partial<OrderRecord> = {}): OrderRecord {
  const { items: _items, statuses: _statuses, invoices, ...fields } = dataset.orders[0]!;
  return {
    ...fields,
    id,
    order_no: `SO-${id}`,
    deliveryagent_id: null,
    items: [
      { product_id: 1, quantity: 5, price: 250.1 },
      { product_id: 2, quantity: 1, price: 0 },
    ],
    statuses: [
      { name: "Placed", at: "2026-03-14T09:30:00Z" },
      { name: "Processed", at: "2026-03-14T15:00:00+05:30" },
    ],
    invoices: [{ ...invoices[1]!, id: id * 10, invoice_number: `INV-${id}` }],
    ...overrides,
  };
}

/** A small, valid dataset (the fixture's records, some changed); a fresh copy each call, so that a test may spoil it. */
export function base(): Dataset {
  const [mehta, khan] = dataset.customers;
  return structuredClone({
    states: dataset.states.slice(0, 1),
    cities: dataset.cities.slice(0, 1),
    areas: dataset.areas.slice(0, 1),
    postal_codes: [
      { id: 1, code: "400069" },
      { id: 2, code: "400050" },
    ],
    sales_agents: [{ ...dataset.sales_agents[0]!, postalcode_ids: [1, 2] }],
    delivery_agents: dataset.delivery_agents,
    products: dataset.products.slice(0, 2),
    customers: [
      { ...mehta!, customer_code: null, address: { ...mehta!.address!, addressline2: "" } },
      {
        ...khan!,
        contactperson_number: "022-2345 6789",
        gstin: null,
        customer_code: "C-2",
        status: "Inactive",
        approval: "pending",
      },
    ],
    orders: [
      order(1),
      order(2, { customer_id: 2, salesagent_id: null, deliveryagent_id: 1, statuses: [], invoices: [] }),
    ],
  }) as Dataset;
}

export interface Expected {
  type?: string;
  id?: number;
  where: string;
  field?: string;
  problem?: string | RegExp;
}

/** The import fails with an ImportError naming the record and field, and changes nothing. */
export async function expectRejected(attempt: () => Promise<unknown>, expected: Expected): Promise<ImportError> {
  const before = await snapshot();
  const err = await attempt().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportError);
  const e = err as ImportError;
  expect({ type: e.type, id: e.id, where: e.where, field: e.field }).toEqual({
    type: expected.type,
    id: expected.id,
    where: expected.where,
    field: expected.field,
  });
  if (expected.problem !== undefined) expect(e.problem).toMatch(expected.problem);
  expect(await snapshot()).toEqual(before);
  expect(await stagingTables()).toEqual([]);
  return e;
}

/** The rejection of the order with this id, the index-th of the file's orders. */
export function orderAt(id: number, index: number, field: string, problem: string | RegExp): Expected {
  return { type: "order", id, where: `orders[${index}]`, field, problem };
}

/** importDataset(data) is rejected as `expected` says, and changes nothing. */
export function rejects(data: Dataset, expected: Expected): Promise<ImportError> {
  return expectRejected(() => importDataset(env.DB, data), expected);
}
