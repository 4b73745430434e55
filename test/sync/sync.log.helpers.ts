// The sync log tests' shared parts: two agents' books in the dataset format, and the log as rows.
import { env } from "cloudflare:workers";
import { type Dataset, type ImportOptions, importDataset, type OrderRecord } from "../../src/import/importer.ts";
import { customerRecord, dataset, orderRecord } from "../fixtures/dataset.ts";

/** One log entry: [book, kind, record id, deleted]. */
export type Entry = [number, "customer" | "order", number, 0 | 1];

export interface Logged {
  seq: number;
  entry: Entry;
}

export async function log(): Promise<Logged[]> {
  const { results } = await env.DB.prepare(
    "SELECT seq, book, kind, record_id, deleted FROM sync_changes ORDER BY seq",
  ).all<{ seq: number; book: number; kind: Entry[1]; record_id: number; deleted: 0 | 1 }>();
  return results.map((r) => ({ seq: r.seq, entry: [r.book, r.kind, r.record_id, r.deleted] }));
}

/** The entries written since `before` (a log() read earlier), in the order written. */
export async function loggedSince(before: Logged[]): Promise<Entry[]> {
  const top = Math.max(0, ...before.map((l) => l.seq));
  return (await log()).filter((l) => l.seq > top).map((l) => l.entry);
}

/** An order with two statuses (the fixture's orderRecord). */
export function order(id: number, customerId: number, overrides: Partial<OrderRecord> = {}): OrderRecord {
  const statuses: OrderRecord["statuses"] = [
    { name: "Placed", at: "2026-03-14T09:30:00Z" },
    { name: "Processed", at: "2026-03-14T11:00:00Z" },
  ];
  return orderRecord(id, customerId, { statuses, ...overrides });
}

/**
 * Agent 1's book: customers 1 (Andheri East, Mumbai) and 2 (no address), orders 11 and 12 of
 * customer 1. Agent 2's: customers 3 (Koramangala, Bengaluru) and 5 (Bandra West, Mumbai), orders 13
 * and 15. Customer 4 (Bandra West) and its order 14 have no agent: they are in no book.
 */
export function books(): Dataset {
  const { states, cities, areas, postal_codes, sales_agents, delivery_agents, products } = dataset;
  return structuredClone({
    states,
    cities,
    areas,
    postal_codes,
    sales_agents,
    delivery_agents,
    products,
    customers: [
      customerRecord(1, { area_id: 1, postalcode_id: 1 }),
      customerRecord(2, { address: null }),
      customerRecord(3, { salesagent_id: 2, area_id: 2, postalcode_id: 2 }),
      customerRecord(4, { salesagent_id: null }),
      customerRecord(5, { salesagent_id: 2 }),
    ],
    orders: [
      order(11, 1, {
        deliveryagent_id: 1,
        items: [
          { product_id: 1, quantity: 5, price: 150.1 },
          { product_id: 2, quantity: 2, price: 124.5 },
        ],
        invoices: [
          {
            id: 111,
            invoice_number: "INV-111",
            date: "2026-03-16",
            due_date: "2026-04-15",
            total_amount: 100,
            discount_amount: 0,
            returned_amount: 0,
            invoice_amount: 100,
            cgst: 4.5,
            sgst: 4.5,
            igst: 0,
          },
        ],
      }),
      order(12, 1, { salesagent_id: 3, items: [{ product_id: 3, quantity: 1, price: 25 }] }),
      order(13, 3, { salesagent_id: 2 }),
      order(14, 4),
      order(15, 5, { salesagent_id: 2, items: [{ product_id: 2, quantity: 1, price: 124.5 }] }),
    ],
  }) as Dataset;
}

/** Imports books(), then books() as `edit` changes them: what the second import logged, and its summary. */
export async function importEdited(edit: (book: Dataset) => void, options?: ImportOptions) {
  await importDataset(env.DB, books());
  const before = await log();
  const edited = books();
  edit(edited);
  const summary = await importDataset(env.DB, edited, options);
  return { logged: await loggedSince(before), summary };
}

/** Entries of one book, in the order written: `upserted(1, "customer 1", "order 11")`. */
export const upserted = (book: number, ...records: string[]): Entry[] => entriesOf(book, records, 0);
/** Tombstones of one book, in the order written: `deleted(2, "order 13")`. */
export const deleted = (book: number, ...records: string[]): Entry[] => entriesOf(book, records, 1);

function entriesOf(book: number, records: string[], gone: 0 | 1): Entry[] {
  return records.map((record) => {
    const [kind, id] = record.split(" ") as [Entry[1], string];
    return [book, kind, Number(id), gone];
  });
}

/** What importing books() logs into an empty log: its records in file order, customers first. */
export const BOOKS_LOGGED: Entry[] = [
  ...upserted(1, "customer 1", "customer 2"),
  ...upserted(2, "customer 3", "customer 5"),
  ...upserted(1, "order 11", "order 12"),
  ...upserted(2, "order 13", "order 15"),
];

/** Empties the record tables and the log (the log's numbers go on: AUTOINCREMENT). */
export async function emptyBooks(): Promise<void> {
  // Deleting records writes tombstones: the log is emptied after them.
  const tables = [
    "invoices",
    "order_statuses",
    "order_items",
    "orders",
    "customer_addresses",
    "customers",
    "sales_agent_postal_codes",
    "sync_changes",
    "sync_books",
  ];
  await env.DB.batch(tables.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
}
