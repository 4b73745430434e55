// What the lookup batch found, in the create flow's own terms: the referenced rows, the customer that
// has the number already, and the first answer kept for the Idempotency-Key.
import type { AreaRow, IdempotencyRow, LookupRows, ReferenceLookupRows } from "./create.queries.ts";

export interface References {
  area: AreaRow | null;
  postalcode: { id: number; code: string } | null;
  salesAgentExists: boolean;
}

export interface ExistingCustomer {
  id: number;
  salesagentId: number | null;
}

/** `requestHash`: the fingerprint of the parameters it answered. */
export interface FirstAnswer {
  requestHash: string;
  status: number;
  body: string;
  createdAt: number;
}

export interface Found extends References {
  existingCustomer: ExistingCustomer | null;
  firstAnswer: FirstAnswer | null;
}

export function references(rows: ReferenceLookupRows): References {
  return { area: rows.area, postalcode: rows.postalcode, salesAgentExists: rows.salesAgent !== null };
}

export function foundIn(rows: LookupRows): Found {
  return { ...references(rows), existingCustomer: rows.phoneOwner, firstAnswer: firstAnswer(rows.idempotency) };
}

export function firstAnswer(row: IdempotencyRow | null): FirstAnswer | null {
  return row && { requestHash: row.requestHash, status: row.status, body: row.body, createdAt: row.createdAt };
}
