// A sync answer's records, read by id in slices sized by the answer so far (section 8, "Cost").
import { type CustomerJsonByIdRow, customersJsonByIdsStatement } from "../customers/customers.queries.ts";
import { type OrderJsonRow, orderJson, ordersJsonByIdsStatement } from "../orders/orders.queries.ts";
import type { Database } from "../platform/db/database.ts";
import { runBatch } from "../platform/db/compiled.ts";
import type { LogEntry } from "./sync.queries.ts";

/** SPEC "Answer size": the body, envelope included. */
export const MAX_BODY_BYTES = 1_000_000;
/** Room for the envelope around the changes: the members' names, the cursor, has_more. */
export const ENVELOPE_BYTES = 200;
/** The records of a first slice: an answer of the default limit reads its records in one round trip. */
const FIRST_SLICE = 200;

export interface WalkKey {
  type: "customer" | "order";
  id: number;
  customerId: number;
  /** An order's date ("" for a customer): with the id, its place among its customer's orders. */
  date: string;
}

/** One record of the answer to come, in order: a walk's key, or a log entry. */
export type Step = { key: WalkKey } | { entry: LogEntry };

/** An order record's text (orderJson), and the customer that its row names. */
interface OrderText {
  customerId: number;
  text: string;
}

/** One round trip a slice, restricted to the book; a slice holds what the bytes left will take at the changes' size so
 * far, never more steps than the answer has, so a cut answer reads hardly a record past the cut. */
export class Slices {
  readonly customers = new Map<number, CustomerJsonByIdRow>();
  readonly orders = new Map<number, OrderText>();
  /** The steps whose records have been read. */
  private read = 0;

  constructor(
    private readonly db: Database,
    private readonly book: number,
    private readonly steps: Step[],
  ) {}

  /** Reads the slices up to and including step `index`, sized by the answer so far. */
  async through(index: number, answer: { changes: number; bytes: number }): Promise<void> {
    while (index >= this.read) {
      const left = this.steps.length - this.read;
      let size = Math.min(left, FIRST_SLICE);
      if (answer.changes > 0) {
        const average = (answer.bytes - ENVELOPE_BYTES) / answer.changes;
        size = Math.min(left, answer.changes, Math.floor((MAX_BODY_BYTES - answer.bytes) / average) + 1);
      }
      await this.readSlice(this.steps.slice(this.read, this.read + size));
      this.read += size;
    }
  }

  private async readSlice(steps: Step[]): Promise<void> {
    const customerIds = new Set<number>();
    const orderIds = new Set<number>();
    for (const step of steps) {
      if ("key" in step) {
        customerIds.add(step.key.customerId);
        if (step.key.type === "order") orderIds.add(step.key.id);
      } else if (!step.entry.deleted) {
        const e = step.entry;
        if (e.kind === "customer") customerIds.add(e.recordId);
        else if (e.customerId !== null) {
          orderIds.add(e.recordId);
          customerIds.add(e.customerId);
        }
      }
    }
    if (customerIds.size === 0 && orderIds.size === 0) return;
    const [customerRows, orderRows] = await runBatch(this.db, [
      customersJsonByIdsStatement(customerIds, this.book),
      ordersJsonByIdsStatement(orderIds, this.book),
    ]);
    const customers = new Map(customerRows.map((row) => [row.id, row]));
    for (const [id, row] of customers) this.customers.set(id, row);
    // An order whose customer this slice did not read is left out.
    for (const row of orderRows as OrderJsonRow[]) {
      const shown = customers.get(row.customerId);
      if (shown) this.orders.set(row.id, { customerId: row.customerId, text: orderJson(row, shown) });
    }
  }
}
