// The sync's queries (section 8): purge mark, highest seq, the walk and the log; one index entry per record found.
import { and, asc, eq, gt, max, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { customers, orders, salesAgents, syncBooks, syncChanges } from "../../drizzle/schema.ts";
import { as } from "../platform/db/columns.ts";
import * as cq from "../platform/db/compiled.ts";
import { rowLimit } from "../platform/db/sql.queries.ts";

const BOOK = sql.placeholder("book");
const LIMIT = rowLimit(sql.placeholder("limit"));
const AFTER_CUSTOMER = sql.placeholder("afterCustomer");
const AFTER_ORDER = sql.placeholder("afterOrder");
const AFTER_DATE = sql.placeholder("afterDate");
const AFTER_SEQ = sql.placeholder("afterSeq");

const customerEntry = alias(syncChanges, "customer_entry");

const queries = cq.compiled((db) => ({
  agent: db.select({ id: salesAgents.id }).from(salesAgents).where(eq(salesAgents.id, BOOK)).prepare(),
  purgeMark: db.select({ mark: syncBooks.purgeMark }).from(syncBooks).where(eq(syncBooks.book, BOOK)).prepare(),
  // One entry of (book, seq): where a first sync's walk is pinned.
  lastSeq: db
    .select({ seq: max(syncChanges.seq) })
    .from(syncChanges)
    .where(eq(syncChanges.book, BOOK))
    .prepare(),
  // The rest of the orders of the customer the walk stopped in, after (date, id), only if it is in the book now: a
  // cursor may name any customer, whose row is read by id and nothing past it ("Nothing outside the book").
  walkRest: db
    .select({ orderId: orders.id, date: orders.date })
    .from(customers)
    .innerJoin(orders, eq(orders.customerId, customers.id))
    .where(
      and(
        eq(customers.id, AFTER_CUSTOMER),
        eq(customers.salesagentId, BOOK),
        sql`(${orders.date}, ${orders.id}) > (${AFTER_DATE}, ${AFTER_ORDER})`,
      ),
    )
    .orderBy(asc(orders.date), asc(orders.id))
    .limit(LIMIT)
    .prepare(),
  // The next customers, each followed by its orders by (date, id) (a row with a null order: a customer
  // with none), read in index order from customers_salesagent_idx and orders_customer_date_idx: no sort.
  walkNext: db
    .select({
      customerId: as(customers.id, "customer_id"),
      orderId: as(orders.id, "order_id"),
      date: as(orders.date, "order_date"),
    })
    .from(customers)
    .leftJoin(orders, eq(orders.customerId, customers.id))
    .where(and(eq(customers.salesagentId, BOOK), gt(customers.id, AFTER_CUSTOMER)))
    .orderBy(asc(customers.id), asc(orders.date), asc(orders.id))
    .limit(LIMIT)
    .prepare(),
  // The book's entries after a seq; for an order that is still there, its customer and the seq of the
  // customer's own entry (which the rule "Ordered" needs).
  log: db
    .select({
      seq: as(syncChanges.seq, "seq"),
      kind: syncChanges.kind,
      recordId: syncChanges.recordId,
      deleted: syncChanges.deleted,
      customerId: as(orders.customerId, "customer_id"),
      customerSeq: as(customerEntry.seq, "customer_seq"),
    })
    .from(syncChanges)
    // The id only for an order's upsert: SQLite looks up even a row that the rest of an ON clause excludes.
    .leftJoin(
      orders,
      eq(
        orders.id,
        sql`case when ${syncChanges.kind} = 'order' and ${syncChanges.deleted} = 0 then ${syncChanges.recordId} end`,
      ),
    )
    .leftJoin(
      customerEntry,
      and(
        eq(customerEntry.book, syncChanges.book),
        eq(customerEntry.kind, "customer"),
        eq(customerEntry.recordId, orders.customerId),
      ),
    )
    .where(and(eq(syncChanges.book, BOOK), gt(syncChanges.seq, AFTER_SEQ)))
    .orderBy(asc(syncChanges.seq))
    .limit(LIMIT)
    .prepare(),
}));

export const agentStatement = (book: number) => queries().agent.bind({ book });

export const purgeMarkStatement = (book: number) => queries().purgeMark.bind({ book });

export const lastSeqStatement = (book: number) => queries().lastSeq.bind({ book });

/** At most `limit` rows each: the walk's next records after (customer, order) in walk order. */
export function walkStatements(book: number, after: { customer: number; order: number; date: string }, limit: number) {
  const q = queries();
  const values = { book, afterCustomer: after.customer, afterOrder: after.order, afterDate: after.date, limit };
  return [q.walkRest.bind(values), q.walkNext.bind(values)] as const;
}

export const logStatement = (book: number, afterSeq: number, limit: number) =>
  queries().log.bind({ book, afterSeq, limit });

export type LogEntry = ReturnType<ReturnType<typeof logStatement>["map"]>[number];
