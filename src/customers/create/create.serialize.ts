// The answer of POST /customers/create, in one place: the 201 body (typed by the schema), its text
// (what is sent, stored and replayed byte for byte), and the stored answer written with the
// customer. SQLite assigns the id inside the write batch, so the answer is stored as its text
// before and after the id, which the write joins around the new id in SQL.
import type { z } from "@hono/zod-openapi";
import type { CustomerInsertRows } from "./create.queries.ts";
import type { CustomerWithAddressRow } from "../customers.queries.ts";
import type { CustomerSchema } from "../customers.schemas.ts";
import { toCustomer } from "../customers.serialize.ts";
import type { References } from "./create.found.ts";
import { expectedRow } from "./create.rows.ts";

/** A text with the new customer's id in the middle: the parts before and after it. */
export interface AroundId {
  before: string;
  after: string;
}

export type CreatedAnswer = { data: z.infer<typeof CustomerSchema> };

export function createdAnswer(row: CustomerWithAddressRow): CreatedAnswer {
  return { data: toCustomer(row) };
}

/** The answer as text: exactly what is sent (c.json stringifies the same way) and what a replay sends. */
export function answerText(answer: CreatedAnswer): string {
  return JSON.stringify(answer);
}

const ID_PREFIX = '{"data":{"id":';

/** The answer that the customer will get, from the rows read before the write, around its id. */
export function storedAnswerAroundId(rows: CustomerInsertRows, refs: References): AroundId {
  const text = answerText(createdAnswer(expectedRow(rows, refs, 0)));
  if (!text.startsWith(`${ID_PREFIX}0,`)) throw new Error("the customer's id must be the first member of data");
  return { before: ID_PREFIX, after: text.slice(ID_PREFIX.length + 1) };
}
