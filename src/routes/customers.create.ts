import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import {
  expectedRow,
  insertCustomer,
  lookUp,
  lookUpReferences,
  storeAnswer,
  type IdempotentWrite,
  type ReferenceRows,
} from "../db/create-customer.ts";
import { toCustomer, type CustomerWithAddressRow } from "../db/customers.ts";
import { errors, type FieldError } from "../lib/errors.ts";
import { limitBody, MAX_BODY_BYTES } from "../middleware/body-limit.ts";
import { commonErrorResponses, errorResponse } from "../schemas/common.ts";
import { CustomerSchema } from "../schemas/customer.ts";
import {
  IDEMPOTENCY_HEADER,
  REPLAYED_HEADER,
  REPLAY_WINDOW_MS,
  isFresh,
  readIdempotencyKey,
  replay,
  requestHash,
  storedKey,
} from "./create-customer/idempotency.ts";
import { createBody, createQuery } from "./create-customer/openapi.ts";
import { gatherParams } from "./create-customer/params.ts";
import { checkParams, inRequestOrder, type NewCustomer } from "./create-customer/validate.ts";

export const route = createRoute({
  method: "post",
  path: "/customers/create",
  tags: ["Customers"],
  operationId: "createCustomer",
  summary: "Create a customer",
  description:
    "Creates a customer with its address, atomically. Parameters may come in the query string (as published), a JSON body or a form body; a body value wins over a query value of the same name, and unknown parameters are ignored. Every broken rule is reported in one 422. A customer whose mobile number normalizes to the same 10 digits already exists: 409 naming it. With an Idempotency-Key, a retry with the same parameters within 24 hours replays the first 201 (header Idempotent-Replayed: true) and creates nothing.",
  security: [{ bearerAuth: [] }],
  middleware: [limitBody],
  request: {
    query: createQuery,
    headers: z.object({
      // Any string passes here: the rule is checked with the parameters, so that a bad key is one
      // more entry in the same 422.
      [IDEMPOTENCY_HEADER]: z
        .string()
        .optional()
        .openapi({
          param: {
            description:
              "Optional. 1 to 255 printable ASCII characters (a key that breaks this rule is reported in the 422 with the parameters). A retry with the same key and parameters within 24 hours replays the first 201 and creates nothing; the same key with other parameters within that time is a 409.",
          },
          example: "3f1c9a2e-7b1d-4c55-9d1e-2b8a6f0c4e11",
        }),
    }),
    body: createBody,
  },
  responses: {
    201: {
      description: "The customer as created, or the first answer again when an Idempotency-Key replays it",
      headers: {
        [REPLAYED_HEADER]: {
          description: `"true" on a replay of an earlier answer (same ${IDEMPOTENCY_HEADER}, same parameters); absent when this request created the customer.`,
          required: false,
          schema: { type: "string", const: "true" },
        },
      },
      content: { "application/json": { schema: z.object({ data: CustomerSchema }) } },
    },
    400: errorResponse("A body that does not parse as its Content-Type says, or a body of an unsupported type"),
    409: errorResponse("A customer has this mobile number (customer_id names it), or the Idempotency-Key was used with other parameters"),
    413: errorResponse(`A body over ${MAX_BODY_BYTES} bytes`),
    ...commonErrorResponses,
  },
});

// Typed as a plain handler: its answers are text built once and replayed byte for byte (c.body).
export const handler = async (c: Context<AppEnv>): Promise<Response> => {
  const raw = await gatherParams(c);
  const idemHeader = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
  const { fields, valid } = checkParams(raw);
  if (idemHeader.error) fields.push(idemHeader.error);
  const db = c.get("services").primaryDb;
  const idemKey = idemHeader.key === undefined ? undefined : storedKey(c.get("apiKey")!.id, idemHeader.key);

  const found = await lookUp(db, { ...valid, idempotencyKey: idemKey });
  const now = Date.now();
  // A key still in its window answers for itself: the same parameters replay, any others conflict.
  if (found.idempotency && isFresh(found.idempotency.createdAt, now)) {
    const hash = fields.length === 0 ? await requestHash(valid as NewCustomer) : undefined;
    if (hash !== found.idempotency.requestHash) throw keyReused();
    return replay(c, found.idempotency);
  }

  fields.push(...unknownReferences(valid, found));
  if (fields.length > 0) throw errors.validation(inRequestOrder(fields));
  const input = valid as NewCustomer;
  if (found.existingCustomerId !== null) throw phoneTaken(found.existingCustomerId);

  const idem = idemKey === undefined ? undefined : await idempotentWrite(idemKey, input, found, now);
  const outcome = await insertCustomer(db, input, idem);
  switch (outcome.kind) {
    case "created":
      return created(c, outcome.row, idem);
    case "phone-taken":
      if (outcome.customerId === null) throw errors.internal();
      throw phoneTaken(outcome.customerId);
    case "key-taken":
      // A concurrent request with this key won; its record is complete (it was written in one batch).
      if (!outcome.record || outcome.record.requestHash !== idem!.requestHash) throw keyReused();
      return replay(c, outcome.record);
    case "reference-gone": {
      // An area, postal code or sales agent was deleted between the lookup and the write.
      const missing = unknownReferences(input, await lookUpReferences(db, input));
      if (missing.length === 0) throw errors.internal();
      throw errors.validation(missing);
    }
  }
};

function unknownReferences(valid: Partial<NewCustomer>, refs: ReferenceRows): FieldError[] {
  const out: FieldError[] = [];
  if (valid.areaId !== undefined && !refs.area) out.push({ field: "area_id", message: "names no area: no area has this id" });
  if (valid.postalcodeId !== undefined && !refs.postalcode) {
    out.push({ field: "postalcode_id", message: "names no postal code: no postal code has this id" });
  }
  if (valid.salesagentId !== undefined && !refs.salesAgentExists) {
    out.push({ field: "salesagent_id", message: "names no sales agent: no sales agent has this id" });
  }
  return out;
}

async function idempotentWrite(key: string, input: NewCustomer, refs: ReferenceRows, now: number): Promise<IdempotentWrite> {
  const [bodyBeforeId, bodyAfterId] = splitAtId(answerBody(expectedRow(input, refs, 0)));
  return { key, requestHash: await requestHash(input), now, staleAtOrBefore: now - REPLAY_WINDOW_MS, bodyBeforeId, bodyAfterId };
}

/** The 201 body, as text: exactly what is sent and what a replay sends. */
function answerBody(row: CustomerWithAddressRow): string {
  return JSON.stringify({ data: toCustomer(row) });
}

const ID_PREFIX = '{"data":{"id":';

/** A body built with id 0 in two parts around the id, for SQL to join with the id SQLite assigns. */
function splitAtId(body: string): [string, string] {
  if (!body.startsWith(`${ID_PREFIX}0,`)) throw new Error("the customer's id must be the first member of data");
  return [ID_PREFIX, body.slice(ID_PREFIX.length + 1)];
}

async function created(c: Context<AppEnv>, row: CustomerWithAddressRow, idem: IdempotentWrite | undefined) {
  const body = answerBody(row);
  // The stored answer was built from the rows read before the write; should one of them have
  // changed in between (an import), the answer sent is the truth, and the stored one follows it.
  if (idem && body !== `${idem.bodyBeforeId}${row.id}${idem.bodyAfterId}`) {
    await storeAnswer(c.get("services").primaryDb, idem.key, idem.requestHash, body);
  }
  return c.body(body, 201, { "Content-Type": "application/json" });
}

function phoneTaken(customerId: number) {
  return errors.conflict(`A customer with this mobile number exists: customer ${customerId}`, { customer_id: customerId });
}

function keyReused() {
  return errors.conflict(
    `This ${IDEMPOTENCY_HEADER} was used with other parameters within the last 24 hours; send a new key for a new request`,
  );
}
