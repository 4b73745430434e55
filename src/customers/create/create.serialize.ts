// The answer of POST /customers/create: sent, stored and replayed byte for byte. SQLite assigns the id
// inside the write batch, so the stored text is split around it and joined in SQL.
import type { z } from "@hono/zod-openapi";
import type { CustomerInsertRows } from "./create.queries.ts";
import type { CustomerWithAddressRow } from "../customers.queries.ts";
import type { CustomerSchema } from "../customers.schemas.ts";
import { toCustomer } from "../customers.serialize.ts";
import type { References } from "./create.found.ts";
import { expectedRow } from "./create.rows.ts";

export interface AroundId {
  before: string;
  after: string;
}

export type CreatedAnswer = { data: z.infer<typeof CustomerSchema> };

export function createdAnswer(row: CustomerWithAddressRow): CreatedAnswer {
  return { data: toCustomer(row) };
}

/** c.json stringifies the same way, so a replay sends exactly what was sent. */
export function answerText(answer: CreatedAnswer): string {
  return JSON.stringify(answer);
}

const ID_PREFIX = '{"data":{"id":';

/** From the rows read before the write. */
export function storedAnswerAroundId(rows: CustomerInsertRows, refs: References): AroundId {
  const text = answerText(createdAnswer(expectedRow(rows, refs, 0)));
  if (!text.startsWith(`${ID_PREFIX}0,`)) throw new Error("the customer's id must be the first member of data");
  return { before: ID_PREFIX, after: text.slice(ID_PREFIX.length + 1) };
}
