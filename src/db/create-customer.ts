// The write of POST /customers/create. D1 has no interactive transactions, so the work is two
// batches (each one round trip, each atomic): one that reads everything the decision needs, and one
// that writes the customer, its address and the idempotency record, and reads the customer back.
// The unique phone_key index and the idempotency primary key decide races inside the write batch.
import { and, eq, lte, sql } from "drizzle-orm";
import {
  areas,
  cities,
  customerAddresses,
  customers,
  idempotencyKeys,
  postalCodes,
  salesAgents,
  states,
} from "../../drizzle/schema.ts";
import { causeMessages } from "../lib/errors.ts";
import type { Database } from "./database.ts";
import { areaColumns } from "./columns.ts";
import { selectCustomersWithAddress, type CustomerWithAddressRow } from "./customers.ts";

export interface IdempotencyRecord {
  key: string;
  requestHash: string;
  status: number;
  body: string;
  createdAt: number;
}

/** A customer that has a number already: who it is, and whose book it is in. */
export interface ExistingCustomer {
  id: number;
  salesagentId: number | null;
}

export interface ReferenceRows {
  area: AreaRow | null;
  postalcode: { id: number; code: string } | null;
  salesAgentExists: boolean;
}

export interface Lookup extends ReferenceRows {
  /** The customer that already has this normalized number, if any, and its sales agent. */
  existingCustomer: ExistingCustomer | null;
  idempotency: IdempotencyRecord | null;
}

type AreaRow = NonNullable<Awaited<ReturnType<typeof selectArea>>[number]>;

// An absent value is looked up as NULL, which matches nothing: the batch keeps one fixed shape.
function selectArea(db: Database, id: number | undefined) {
  return db
    .select(areaColumns)
    .from(areas)
    .leftJoin(cities, eq(cities.id, areas.cityId))
    .leftJoin(states, eq(states.id, cities.stateId))
    .where(eq(areas.id, sql`${id ?? null}`));
}

function referenceStatements(db: Database, ids: { areaId?: number; postalcodeId?: number; salesagentId?: number }) {
  return [
    selectArea(db, ids.areaId),
    db.select({ id: postalCodes.id, code: postalCodes.code }).from(postalCodes).where(eq(postalCodes.id, sql`${ids.postalcodeId ?? null}`)),
    db.select({ id: salesAgents.id }).from(salesAgents).where(eq(salesAgents.id, sql`${ids.salesagentId ?? null}`)),
  ] as const;
}

/** Everything the decision needs, in one round trip. */
export async function lookUp(
  db: Database,
  q: { areaId?: number; postalcodeId?: number; salesagentId?: number; phoneKey?: string; idempotencyKey?: string },
): Promise<Lookup> {
  const [areaRows, postalRows, agentRows, customerRows, idempotencyRows] = await db.batch([
    ...referenceStatements(db, q),
    db.select({ id: customers.id, salesagentId: customers.salesagentId }).from(customers).where(eq(customers.phoneKey, sql`${q.phoneKey ?? null}`)),
    db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, sql`${q.idempotencyKey ?? null}`)),
  ]);
  return {
    area: areaRows[0] ?? null,
    postalcode: postalRows[0] ?? null,
    salesAgentExists: agentRows.length > 0,
    existingCustomer: customerRows[0] ?? null,
    idempotency: idempotencyRows[0] ?? null,
  };
}

/** The three referenced rows again (after a foreign key failure: which one went away?). */
export async function lookUpReferences(db: Database, ids: { areaId: number; postalcodeId: number; salesagentId: number }) {
  const [areaRows, postalRows, agentRows] = await db.batch(referenceStatements(db, ids));
  return { area: areaRows[0] ?? null, postalcode: postalRows[0] ?? null, salesAgentExists: agentRows.length > 0 };
}

/** A new customer's rows (src/customers/create/rows.ts makes them); the address gets the customer's id. */
export interface NewCustomerRows {
  customer: typeof customers.$inferInsert & { phoneKey: string; salesagentId: number };
  address: Omit<typeof customerAddresses.$inferInsert, "customerId"> & { areaId: number; postalcodeId: number };
}

/** A text with the new customer's id in the middle: the parts before and after it. */
export interface AroundId {
  before: string;
  after: string;
}

export interface IdempotentWrite {
  key: string;
  requestHash: string;
  /** Milliseconds since the epoch: idempotency_keys.created_at. */
  now: number;
  /** A stored record created at or before this time (ms) is stale: deleted in the same batch. */
  staleAtOrBefore: number;
  /** The answer to store, around the customer's id (not known until SQLite assigns it in the batch). */
  answer: AroundId;
}

export type WriteOutcome =
  | { kind: "created"; row: CustomerWithAddressRow }
  | { kind: "phone-taken"; customer: ExistingCustomer | null }
  | { kind: "key-taken"; record: IdempotencyRecord | null }
  | { kind: "reference-gone" };

/**
 * Customer, address and idempotency record in one batch: all of it or none of it. A unique or
 * foreign key failure rolls the batch back and comes back as an outcome, never as a fault.
 */
export async function insertCustomer(db: Database, rows: NewCustomerRows, idem?: IdempotentWrite): Promise<WriteOutcome> {
  const phoneKey = rows.customer.phoneKey;
  const newId = sql`(select ${customers.id} from ${customers} where ${customers.phoneKey} = ${phoneKey})`;
  const writes = [
    db.insert(customers).values(rows.customer),
    db.insert(customerAddresses).values({ customerId: newId, ...rows.address }),
  ] as const;
  const readBack = selectCustomersWithAddress(db, eq(customers.phoneKey, phoneKey));

  try {
    const results = idem
      ? await db.batch([
          // Every stale record, this key's included: keeps the table to about a day of keyed creates.
          db.delete(idempotencyKeys).where(lte(idempotencyKeys.createdAt, idem.staleAtOrBefore)),
          // Before the customer: a concurrent duplicate must fail on the key, not on the phone number.
          db.insert(idempotencyKeys).values({ key: idem.key, requestHash: idem.requestHash, status: 201, body: "", createdAt: idem.now }),
          ...writes,
          db
            .update(idempotencyKeys)
            .set({ body: sql`${idem.answer.before} || ${newId} || ${idem.answer.after}` })
            .where(eq(idempotencyKeys.key, idem.key)),
          readBack,
        ])
      : await db.batch([...writes, readBack]);
    const rows = results.at(-1) as CustomerWithAddressRow[];
    return { kind: "created", row: rows[0]! };
  } catch (err) {
    const text = causeMessages(err);
    if (/UNIQUE constraint failed: idempotency_keys\.key/.test(text) && idem) {
      return { kind: "key-taken", record: await findIdempotencyRecord(db, idem.key) };
    }
    if (/UNIQUE constraint failed: customers\.phone_key/.test(text)) {
      const [existing] = await db
        .select({ id: customers.id, salesagentId: customers.salesagentId })
        .from(customers)
        .where(eq(customers.phoneKey, phoneKey));
      return { kind: "phone-taken", customer: existing ?? null };
    }
    if (/FOREIGN KEY constraint failed/.test(text)) return { kind: "reference-gone" };
    throw err;
  }
}

export async function findIdempotencyRecord(db: Database, key: string): Promise<IdempotencyRecord | null> {
  const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
  return row ?? null;
}

/** Rewrites a stored answer (when the one sent differs from the one stored with the write). */
export async function storeAnswer(db: Database, key: string, requestHash: string, body: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ body })
    .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.requestHash, requestHash)));
}
