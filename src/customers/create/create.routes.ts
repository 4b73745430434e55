// POST /customers/create, as the document describes it: its parameters (from the table of
// create.params.ts, in create.openapi.ts), its Idempotency-Key and its answers.
import { z } from "@hono/zod-openapi";
import { commonErrorResponses, errorResponse } from "../../platform/errors.ts";
import { limitBody, MAX_BODY_BYTES } from "../../platform/middleware/body-limit.ts";
import { apiRoute } from "../../access/access.route.ts";
import { CustomerSchema } from "../customers.schemas.ts";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "./create.idempotency.ts";
import { createBody, createQuery } from "./create.openapi.ts";

export const create = apiRoute({
  method: "post",
  scope: "write",
  path: "/customers/create",
  tags: ["Customers"],
  operationId: "createCustomer",
  summary: "Create a customer",
  description:
    "Creates a customer with its address, atomically. Parameters may come in the query string (as published), a JSON body or a form body; a body value wins over a query value of the same name, and unknown parameters are ignored. Every broken rule is reported in one 422. A customer whose mobile number normalizes to the same 10 digits already exists: 409 naming it (not named to a key bound to another sales agent). A key bound to a sales agent creates customers for that agent only: salesagent_id may be left out, and any other agent's id is a 422. With an Idempotency-Key, a retry with the same parameters within 24 hours replays the first 201 (header Idempotent-Replayed: true) and creates nothing.",
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
    409: errorResponse(
      "A customer has this mobile number (customer_id names it, except to a key bound to another sales agent), or the Idempotency-Key was used with other parameters",
    ),
    413: errorResponse(`A body over ${MAX_BODY_BYTES} bytes`),
    ...commonErrorResponses,
  },
});
