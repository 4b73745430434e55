// The second import of `npm run bench -- scale`: a copy of a generated JSON Lines dataset in which
// one customer and one order in a hundred change something that their records show, streamed line by
// line (constant memory), with how many changed records each sales agent's book should see.
import { createReadStream, createWriteStream, existsSync, renameSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createInterface } from "node:readline";

export interface ChangedFile {
  file: string;
  /** Records rewritten: customers renamed, orders given another delivery agent. */
  customers: number;
  orders: number;
  /** Changed records (customers and orders) per sales agent's book: what its next sync should answer. */
  perAgent: Map<number, number>;
  /**
   * Changed records in some agent's book (a customer without an agent is in none): an order shows its
   * customer, so a renamed customer's orders count too.
   */
  inBooks: { customers: number; orders: number };
}

/** One record in EVERY: changed. */
const EVERY = 100;

interface Line {
  type: string;
  id: number;
  display_name?: string;
  salesagent_id?: number | null;
  customer_id?: number;
  deliveryagent_id?: number | null;
}

/**
 * Writes `<file>.changed.jsonl` (kept beside the dataset, like it, and reused): a customer whose id
 * is a multiple of 100 gets a new display name, an order whose id is one another delivery agent.
 */
export async function changedCopy(file: string): Promise<ChangedFile> {
  const out = file.replace(/\.jsonl$/, ".changed.jsonl");
  const agentOfCustomer: number[] = [];
  const perAgent = new Map<number, number>();
  const inBooks = { customers: 0, orders: 0 };
  const count = (agent: number | undefined, kind: keyof typeof inBooks) => {
    if (!agent) return;
    perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
    inBooks[kind]++;
  };
  let deliveryAgents = 0;
  let customers = 0;
  let orders = 0;
  async function* changedLines() {
    for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      let line = text;
      const record = JSON.parse(text) as Line;
      if (record.type === "delivery_agent") deliveryAgents++;
      else if (record.type === "customer") {
        agentOfCustomer[record.id] = record.salesagent_id ?? 0;
        if (record.id % EVERY === 0) {
          line = JSON.stringify({ ...record, display_name: `${record.display_name} (renamed)` });
          customers++;
          count(record.salesagent_id ?? undefined, "customers");
        }
      } else if (record.type === "order") {
        if (record.id % EVERY === 0) {
          const now = record.deliveryagent_id ?? 0;
          line = JSON.stringify({ ...record, deliveryagent_id: (now % deliveryAgents) + 1 });
          orders++;
        }
        if (record.id % EVERY === 0 || record.customer_id! % EVERY === 0) {
          count(agentOfCustomer[record.customer_id!], "orders");
        }
      }
      yield `${line}\n`;
    }
  }
  if (existsSync(out)) for await (const _ of changedLines());
  else {
    await pipeline(changedLines, createWriteStream(`${out}.partial`));
    // Renamed only when complete, so that an interrupted run never leaves a truncated file to reuse.
    renameSync(`${out}.partial`, out);
  }
  return { file: out, customers, orders, perAgent, inBooks };
}
