// The rows of POST /customers/create. D1 has no interactive transactions: one batch reads what the decision
// needs, one writes atomically; the unique phone_key and idempotency key decide races inside the write.
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
} from "../../../drizzle/schema.ts";
import { causeMessages } from "../../platform/errors.ts";
import type { Database } from "../../platform/db/database.ts";
import { areaColumns } from "../../platform/db/columns.ts";
import { selectCustomersWithAddress, type CustomerWithAddressRow } from "../customers.queries.ts";

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export interface PhoneOwnerRow {
  id: number;
  salesagentId: number | null;
}

export type AreaRow = NonNullable<Awaited<ReturnType<typeof selectArea>>[number]>;

export interface ReferenceLookupRows {
  area: AreaRow | null;
  postalcode: { id: number; code: string } | null;
  salesAgent: { id: number } | null;
}

export interface LookupRows extends ReferenceLookupRows {
  phoneOwner: PhoneOwnerRow | null;
  idempotency: IdempotencyRow | null;
}

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
    db
      .select({ id: postalCodes.id, code: postalCodes.code })
      .from(postalCodes)
      .where(eq(postalCodes.id, sql`${ids.postalcodeId ?? null}`)),
    db
      .select({ id: salesAgents.id })
      .from(salesAgents)
      .where(eq(salesAgents.id, sql`${ids.salesagentId ?? null}`)),
  ] as const;
}

export async function readForCreate(
  db: Database,
  q: { areaId?: number; postalcodeId?: number; salesagentId?: number; phoneKey?: string; idempotencyKey?: string },
): Promise<LookupRows> {
  const [areaRows, postalRows, agentRows, customerRows, idempotencyRows] = await db.batch([
    ...referenceStatements(db, q),
    db
      .select({ id: customers.id, salesagentId: customers.salesagentId })
      .from(customers)
      .where(eq(customers.phoneKey, sql`${q.phoneKey ?? null}`)),
    db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, sql`${q.idempotencyKey ?? null}`)),
  ]);
  return {
    area: areaRows[0] ?? null,
    postalcode: postalRows[0] ?? null,
    salesAgent: agentRows[0] ?? null,
    phoneOwner: customerRows[0] ?? null,
    idempotency: idempotencyRows[0] ?? null,
  };
}

/** The address gets the customer's id in the batch. */
export interface CustomerInsertRows {
  customer: typeof customers.$inferInsert & { phoneKey: string; salesagentId: number };
  address: Omit<typeof customerAddresses.$inferInsert, "customerId"> & { areaId: number; postalcodeId: number };
}

export interface IdempotencyInsert {
  key: string;
  requestHash: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** Records created at or before this are stale: deleted in the same batch. */
  staleAtOrBefore: number;
  /** Split around the customer's id, which SQLite assigns in the batch. */
  body: { before: string; after: string };
  /** `body` was made from rows read before the write; should they change meanwhile (an import), this is stored. */
  bodyFor(row: CustomerWithAddressRow): string;
}

export type WriteOutcome =
  | { kind: "created"; row: CustomerWithAddressRow }
  | { kind: "phone-taken"; owner: PhoneOwnerRow | null }
  | { kind: "key-taken"; record: IdempotencyRow | null }
  | { kind: "reference-gone"; references: ReferenceLookupRows };

// All of it or none of it. A unique or foreign key failure rolls the batch back and comes back as an
// outcome with the rows that explain it (one more round trip), never as a fault.
export async function writeCustomer(
  db: Database,
  rows: CustomerInsertRows,
  idem?: IdempotencyInsert,
): Promise<WriteOutcome> {
  const phoneKey = rows.customer.phoneKey;
  const newId = sql`(select ${customers.id} from ${customers} where ${customers.phoneKey} = ${phoneKey})`;
  const writes = [
    db.insert(customers).values(rows.customer),
    db.insert(customerAddresses).values({ customerId: newId, ...rows.address }),
  ] as const;
  const readBack = selectCustomersWithAddress(db, eq(customers.phoneKey, phoneKey));

  let row: CustomerWithAddressRow;
  try {
    const results = idem
      ? await db.batch([
          // Every stale record, this key's included: keeps the table to about a day of keyed creates.
          db.delete(idempotencyKeys).where(lte(idempotencyKeys.createdAt, idem.staleAtOrBefore)),
          // Before the customer: a concurrent duplicate must fail on the key, not on the phone number.
          db
            .insert(idempotencyKeys)
            .values({ key: idem.key, requestHash: idem.requestHash, status: 201, body: "", createdAt: idem.createdAt }),
          ...writes,
          db
            .update(idempotencyKeys)
            .set({ body: sql`${idem.body.before} || ${newId} || ${idem.body.after}` })
            .where(eq(idempotencyKeys.key, idem.key)),
          readBack,
        ])
      : await db.batch([...writes, readBack]);
    row = (results.at(-1) as CustomerWithAddressRow[])[0]!;
  } catch (err) {
    const text = causeMessages(err);
    if (/UNIQUE constraint failed: idempotency_keys\.key/.test(text) && idem) {
      const [record] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, idem.key));
      return { kind: "key-taken", record: record ?? null };
    }
    if (/UNIQUE constraint failed: customers\.phone_key/.test(text)) {
      const [owner] = await db
        .select({ id: customers.id, salesagentId: customers.salesagentId })
        .from(customers)
        .where(eq(customers.phoneKey, phoneKey));
      return { kind: "phone-taken", owner: owner ?? null };
    }
    if (/FOREIGN KEY constraint failed/.test(text)) {
      // Which of the three went away between the lookup and the write.
      const { customer, address } = rows;
      const [areaRows, postalRows, agentRows] = await db.batch(
        referenceStatements(db, {
          areaId: address.areaId,
          postalcodeId: address.postalcodeId,
          salesagentId: customer.salesagentId,
        }),
      );
      return {
        kind: "reference-gone",
        references: { area: areaRows[0] ?? null, postalcode: postalRows[0] ?? null, salesAgent: agentRows[0] ?? null },
      };
    }
    throw err;
  }

  if (idem) {
    const body = idem.bodyFor(row);
    if (body !== `${idem.body.before}${row.id}${idem.body.after}`) {
      await db
        .update(idempotencyKeys)
        .set({ body })
        .where(and(eq(idempotencyKeys.key, idem.key), eq(idempotencyKeys.requestHash, idem.requestHash)));
    }
  }
  return { kind: "created", row };
}
