// Creating a customer (POST /customers/create, docs/specification.md section 5), between the route
// and the database: check the parameters, look up what the decision needs (one round trip), answer
// a fresh Idempotency-Key for itself, and write the customer, its address and the key's record in
// one batch (the second round trip). Every refusal is thrown as an ApiError; what comes back is the
// 201 to send, or a stored first answer to replay as it is.
import type { Database } from "../../db/database.ts";
import {
  type ExistingCustomer,
  insertCustomer,
  lookUp,
  lookUpReferences,
  storeAnswer,
  type IdempotencyRecord,
  type IdempotentWrite,
} from "../../db/create-customer.ts";
import { errors } from "../../lib/errors.ts";
import { answerText, createdAnswer, joinedAroundId, storedAnswerAroundId, type CreatedAnswer } from "./answer.ts";
import { checkParams, inRequestOrder, isComplete, unknownReferences } from "./check.ts";
import { IDEMPOTENCY_HEADER, isFresh, readIdempotencyKey, REPLAY_WINDOW_MS, requestHash, storedKey } from "./idempotency.ts";
import type { RawParams } from "./request.ts";
import { storedRows } from "./rows.ts";

export interface CreateRequest {
  /** The merged parameters as sent (request.ts). */
  params: RawParams;
  /** The Idempotency-Key header as sent, if any. */
  idempotencyKey: string | undefined;
  /** The id of the API key that sent the request: Idempotency-Keys are scoped to it. */
  apiKeyId: string;
  /** The sales agent that key is bound to, or null (docs/specification.md section 2). */
  keyAgentId: number | null;
}

export type CreateOutcome = { kind: "created"; answer: CreatedAnswer } | { kind: "replay"; record: IdempotencyRecord };

export async function createCustomer(db: Database, request: CreateRequest): Promise<CreateOutcome> {
  const idemHeader = readIdempotencyKey(request.idempotencyKey);
  const { fields, valid } = checkParams(request.params, { keyAgentId: request.keyAgentId });
  if (idemHeader.error) fields.push(idemHeader.error);
  const idemKey = idemHeader.key === undefined ? undefined : storedKey(request.apiKeyId, idemHeader.key);

  const found = await lookUp(db, { ...valid, idempotencyKey: idemKey });
  const now = Date.now();
  // A key still in its window answers for itself: the same parameters replay, any others conflict.
  if (found.idempotency && isFresh(found.idempotency.createdAt, now)) {
    const hash = isComplete(fields, valid) ? await requestHash(valid) : undefined;
    if (hash !== found.idempotency.requestHash) throw keyReused();
    return { kind: "replay", record: found.idempotency };
  }

  fields.push(...unknownReferences(valid, found));
  if (!isComplete(fields, valid)) throw errors.validation(inRequestOrder(fields));
  const input = valid;
  if (found.existingCustomer !== null) throw phoneTaken(found.existingCustomer, request.keyAgentId);

  const rows = storedRows(input);
  const idem: IdempotentWrite | undefined =
    idemKey === undefined
      ? undefined
      : {
          key: idemKey,
          requestHash: await requestHash(input),
          now,
          staleAtOrBefore: now - REPLAY_WINDOW_MS,
          answer: storedAnswerAroundId(rows, found),
        };
  const outcome = await insertCustomer(db, rows, idem);
  switch (outcome.kind) {
    case "created": {
      const answer = createdAnswer(outcome.row);
      // The stored answer was built from the rows read before the write; should one of them have
      // changed in between (an import), the answer sent is the truth, and the stored one follows it.
      if (idem) {
        const text = answerText(answer);
        if (text !== joinedAroundId(idem.answer, outcome.row.id)) await storeAnswer(db, idem.key, idem.requestHash, text);
      }
      return { kind: "created", answer };
    }
    case "phone-taken":
      if (outcome.customer === null) throw errors.internal();
      throw phoneTaken(outcome.customer, request.keyAgentId);
    case "key-taken":
      // A concurrent request with this key won; its record is complete (it was written in one batch).
      if (!outcome.record || outcome.record.requestHash !== idem!.requestHash) throw keyReused();
      return { kind: "replay", record: outcome.record };
    case "reference-gone": {
      // An area, postal code or sales agent was deleted between the lookup and the write.
      const missing = unknownReferences(input, await lookUpReferences(db, input));
      if (missing.length === 0) throw errors.internal();
      throw errors.validation(missing);
    }
  }
}

/**
 * The 409 of a number that a customer has already. It names that customer, except to a key bound
 * to another sales agent: a shop is never made twice, but another agent's book stays unseen.
 */
function phoneTaken(existing: ExistingCustomer, keyAgentId: number | null) {
  if (keyAgentId !== null && existing.salesagentId !== keyAgentId) {
    return errors.conflict("A customer with this mobile number exists, in another sales agent's book");
  }
  return errors.conflict(`A customer with this mobile number exists: customer ${existing.id}`, { customer_id: existing.id });
}

function keyReused() {
  return errors.conflict(
    `This ${IDEMPOTENCY_HEADER} was used with other parameters within the last 24 hours; send a new key for a new request`,
  );
}
