// POST /keys/rotate, as the document describes it (docs/specification.md section 9).
import { z } from "@hono/zod-openapi";
import { commonErrorResponses, errorResponse } from "../platform/errors.ts";
import { ownKeyRoute } from "../access/access.route.ts";
import { DEFAULT_ROTATION_GRACE_SECONDS, KEY_ROTATION_HEADER, RotateBodySchema } from "./keys.rotation.ts";
import { KEY_MODES } from "./keys.secret.ts";
import { SCOPES } from "./keys.rules.ts";
import { limitBody } from "../platform/middleware/body-limit.ts";
import { jsonBody } from "../platform/middleware/json-body.ts";

const RotatedKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(KEY_MODES),
    prefix: z.string().openapi({ description: "Enough to recognize the key, useless to use it" }),
    created_at: z.string(),
    expires_at: z.string().nullable().openapi({ description: "The old key's expiry: a successor never outlives it" }),
    scopes: z.array(z.enum(SCOPES)),
    agent_id: z.number().int().nullable(),
    replaces: z.string().openapi({ description: "The old key's id" }),
    secret: z.string().openapi({ description: "The successor's secret: store it before using it" }),
  })
  .openapi("RotatedKey");

const answer = (description: string) => ({
  description,
  content: { "application/json": { schema: z.object({ data: RotatedKeySchema }) } },
});

export const rotate = ownKeyRoute({
  method: "post",
  path: "/keys/rotate",
  tags: ["Keys"],
  operationId: "rotateKey",
  summary: "Rotate the calling key",
  description:
    `Made with the key itself, of any scope: answers its successor (same name, mode, scopes, agent and expiry) with its secret. The old key keeps working for \`grace\` seconds (default ${DEFAULT_ROTATION_GRACE_SECONDS}), or until one hour after the successor's first use if sooner. ` +
    `Retry-safe: the same call with the old key, before the successor's first use, answers 200 with the same successor and secret. An answer to a key whose rotation is due, or to an old key already rotated, carries \`${KEY_ROTATION_HEADER}: due\`.`,
  request: {
    body: {
      required: false,
      content: {
        "application/json": {
          schema: RotateBodySchema,
        },
      },
    },
  },
  // Body served by jsonBody (mounted without it: keys.index.ts); after the handler, apiRoute's keyRotationSignals.
  middleware: [limitBody, jsonBody(RotateBodySchema)],
  responses: {
    201: answer("The successor, with its secret"),
    200: answer("The same successor again: a retry with the old key before the successor's first use"),
    400: errorResponse("The body is not JSON"),
    409: errorResponse(
      "The key was already rotated and its successor has been used (use the successor), or it was rolled",
    ),
    413: errorResponse("The body is larger than 16 KiB"),
    ...commonErrorResponses,
  },
});
