// Creating a customer (POST /customers/create, docs/specification.md section 5): check, one lookup batch,
// one write batch. Every refusal is thrown as an ApiError; the outcome is a 201 or a first answer to replay.
import { readForCreate, writeCustomer, type IdempotencyInsert } from "./create.queries.ts";
import type { Services } from "../../env.ts";
import type { KeyRecord } from "../../keys/keys.record.ts";
import { errors } from "../../platform/errors.ts";
import { answerText, createdAnswer, storedAnswerAroundId, type CreatedAnswer } from "./create.serialize.ts";
import { checkParams, inRequestOrder, isComplete, unknownReferences } from "./create.check.ts";
import { firstAnswer, foundIn, references, type ExistingCustomer, type FirstAnswer } from "./create.found.ts";
import {
  IDEMPOTENCY_HEADER,
  isFresh,
  readIdempotencyKey,
  REPLAY_WINDOW_MS,
  requestHash,
  storedKey,
} from "./create.idempotency.ts";
import { gatherParams } from "./create.request.ts";
import { storedRows } from "./create.rows.ts";

/** The request as it came: the route hands it over unread. */
export interface CreateRequest {
  query: Record<string, string[]>;
  contentType: string | undefined;
  body: ArrayBuffer;
  idempotencyKey: string | undefined;
}

export type CreateOutcome = { kind: "created"; answer: CreatedAnswer } | { kind: "replay"; first: FirstAnswer };

/** `key` scopes Idempotency-Keys; an agent-bound one creates for its agent only (docs/specification.md section 2). */
export async function createCustomer(
  services: Pick<Services, "primaryDb">,
  key: Pick<KeyRecord, "id" | "agent_id" | "lineage_id">,
  request: CreateRequest,
): Promise<CreateOutcome> {
  const db = services.primaryDb;
  const params = await gatherParams(request.query, request.contentType, request.body);
  const idemHeader = readIdempotencyKey(request.idempotencyKey);
  const { fields, valid } = checkParams(params, { keyAgentId: key.agent_id });
  if (idemHeader.error) fields.push(idemHeader.error);
  const idemKey = idemHeader.key === undefined ? undefined : storedKey(key, idemHeader.key);

  const found = foundIn(await readForCreate(db, { ...valid, idempotencyKey: idemKey }));
  const now = Date.now();
  // A key still in its window answers for itself: the same parameters replay, any others conflict.
  if (found.firstAnswer && isFresh(found.firstAnswer.createdAt, now)) {
    const hash = isComplete(fields, valid) ? await requestHash(valid) : undefined;
    if (hash !== found.firstAnswer.requestHash) throw keyReused();
    return { kind: "replay", first: found.firstAnswer };
  }

  fields.push(...unknownReferences(valid, found));
  if (!isComplete(fields, valid)) throw errors.validation(inRequestOrder(fields));
  const input = valid;
  if (found.existingCustomer !== null) throw phoneTaken(found.existingCustomer, key.agent_id);

  const rows = storedRows(input);
  const idem: IdempotencyInsert | undefined =
    idemKey === undefined
      ? undefined
      : {
          key: idemKey,
          requestHash: await requestHash(input),
          createdAt: now,
          staleAtOrBefore: now - REPLAY_WINDOW_MS,
          body: storedAnswerAroundId(rows, found),
          // Should a referenced row change before the write (an import), the stored answer follows the sent one.
          bodyFor: (row) => answerText(createdAnswer(row)),
        };
  const outcome = await writeCustomer(db, rows, idem);
  switch (outcome.kind) {
    case "created":
      return { kind: "created", answer: createdAnswer(outcome.row) };
    case "phone-taken":
      if (outcome.owner === null) throw errors.internal();
      throw phoneTaken(outcome.owner, key.agent_id);
    case "key-taken": {
      // A concurrent request with this key won; its record is complete (it was written in one batch).
      const first = firstAnswer(outcome.record);
      if (!first || first.requestHash !== idem!.requestHash) throw keyReused();
      return { kind: "replay", first };
    }
    case "reference-gone": {
      // An area, postal code or sales agent was deleted between the lookup and the write.
      const missing = unknownReferences(input, references(outcome.references));
      if (missing.length === 0) throw errors.internal();
      throw errors.validation(missing);
    }
  }
}

/** Names the customer except to a key of another agent: no shop is made twice, yet that book stays unseen. */
function phoneTaken(existing: ExistingCustomer, keyAgentId: number | null) {
  if (keyAgentId !== null && existing.salesagentId !== keyAgentId) {
    return errors.conflict("A customer with this mobile number exists, in another sales agent's book");
  }
  return errors.conflict(`A customer with this mobile number exists: customer ${existing.id}`, {
    customer_id: existing.id,
  });
}

function keyReused() {
  return errors.conflict(
    `This ${IDEMPOTENCY_HEADER} was used with other parameters within the last 24 hours; send a new key for a new request`,
  );
}
