// GET /sync as a property (docs/specification.md section 8): random creates, imports that edit, move and
// rename, re-imports of unchanged files, and two agents' replicas syncing with random page sizes, lost
// answers and resumes from earlier cursors. No answer holds an order whose customer the replica lacks;
// after a full catch-up each replica equals what the listings answer for that agent.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { importDataset, type Dataset } from "../../src/import/importer.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { call } from "../helpers/http.ts";
import { createBody } from "../fixtures/create-body.ts";
import { books, emptyBooks } from "./sync.log.helpers.ts";
import { type Book, bookFromListings, expectWithinCost, getSync, sortedBook } from "./sync.helpers.ts";

type Agent = 1 | 2;

type Action =
  | { kind: "create"; agent: Agent }
  | { kind: "company"; customer: number; name: string }
  | { kind: "moveCustomer"; customer: number; agent: Agent | null }
  | { kind: "amount"; order: number; amount: number }
  | { kind: "moveOrder"; order: number; customer: number }
  | { kind: "renameCity"; name: string }
  | { kind: "reimport" }
  | { kind: "sync"; agent: Agent; limit: number; pages: number; lose: boolean; rewind: number | null };

const agent = fc.constantFrom<Agent>(1, 2);
const customerIndex = fc.integer({ min: 0, max: 4 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), agent }),
  fc.record({ kind: fc.constant("company" as const), customer: customerIndex, name: fc.constantFrom("A", "B", "C") }),
  fc.record({
    kind: fc.constant("moveCustomer" as const),
    customer: customerIndex,
    agent: fc.constantFrom<Agent | null>(1, 2, null),
  }),
  fc.record({ kind: fc.constant("amount" as const), order: customerIndex, amount: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("moveOrder" as const), order: customerIndex, customer: customerIndex }),
  fc.record({ kind: fc.constant("renameCity" as const), name: fc.constantFrom("Mumbai", "Bombay") }),
  fc.record({ kind: fc.constant("reimport" as const) }),
  fc.record({
    kind: fc.constant("sync" as const),
    agent,
    limit: fc.integer({ min: 1, max: 6 }),
    pages: fc.integer({ min: 1, max: 3 }),
    lose: fc.boolean(),
    rewind: fc.option(fc.nat({ max: 20 }), { nil: null }),
  }),
);

interface Replica {
  book: Book;
  cursor: string | undefined;
  /** Every next_cursor this replica applied: a restored phone may come back with any of them. */
  history: (string | undefined)[];
}

const keys: Record<Agent, string> = { 1: "", 2: "" };
beforeAll(async () => {
  await importDataset(env.DB, books());
  keys[1] = (await makeKey({ name: "agent 1", agentId: 1 })).secret;
  keys[2] = (await makeKey({ name: "agent 2", agentId: 2 })).secret;
});

let mobiles = 0;

/** One answer applied (unless lost), checking that no order arrives before its customer. */
async function syncPage(agentId: Agent, replica: Replica, limit: number, lose: boolean): Promise<boolean> {
  const res = await getSync(keys[agentId], { cursor: replica.cursor, limit });
  expect(res.status).toBe(200);
  expectWithinCost(res);
  const { changes, next_cursor, has_more } = res.body.data;
  // At limit 1, an order and the customer it needs first come as a pair.
  expect(changes.length).toBeLessThanOrEqual(Math.max(limit, 2));
  if (lose) return has_more;
  for (const change of changes) {
    if (change.op === "delete") replica.book[change.type].delete(change.id);
    else {
      if (change.type === "order") expect(replica.book.customer.has(change.data!.customer.id)).toBe(true);
      replica.book[change.type].set(change.id, change.data);
    }
  }
  replica.cursor = next_cursor;
  replica.history.push(next_cursor);
  return has_more;
}

async function run(actions: Action[]) {
  clearIsolateCaches();
  await emptyBooks();
  const dataset: Dataset = books();
  await importDataset(env.DB, dataset);
  const replicas: Record<Agent, Replica> = {
    1: { book: { customer: new Map(), order: new Map() }, cursor: undefined, history: [undefined] },
    2: { book: { customer: new Map(), order: new Map() }, cursor: undefined, history: [undefined] },
  };
  for (const a of actions) {
    if (a.kind === "sync") {
      const replica = replicas[a.agent];
      if (a.rewind !== null) replica.cursor = replica.history[a.rewind % replica.history.length];
      for (let p = 0; p < a.pages; p++) if (!(await syncPage(a.agent, replica, a.limit, a.lose && p === 0))) break;
      continue;
    }
    if (a.kind === "create") {
      const mobile = `98${String(++mobiles).padStart(8, "0")}`;
      const res = await call("/api/customers/create", {
        method: "POST",
        key: keys[a.agent],
        body: createBody(mobile, { salesagent_id: a.agent }),
      });
      expect(res.status).toBe(201);
      continue;
    }
    if (a.kind === "company") dataset.customers![a.customer]!.company_name = `Company ${a.name}`;
    if (a.kind === "moveCustomer") dataset.customers![a.customer]!.salesagent_id = a.agent;
    if (a.kind === "amount") dataset.orders![a.order]!.billable_amount = a.amount;
    if (a.kind === "moveOrder") dataset.orders![a.order]!.customer_id = dataset.customers![a.customer]!.id;
    if (a.kind === "renameCity") dataset.cities![0]!.name = a.name;
    await importDataset(env.DB, dataset);
  }
  for (const agentId of [1, 2] as const) {
    const replica = replicas[agentId];
    while (await syncPage(agentId, replica, 50, false));
    expect(sortedBook(replica.book)).toEqual(await bookFromListings(keys[agentId]));
  }
}

it("replicas converge to the listings, and no answer holds an order before its customer", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 8 }), (actions) => run(actions)),
    { numRuns: 5 },
  );
}, 60_000);
