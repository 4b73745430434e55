// POST /enroll (a code exchanged for a key) and GET /enroll (the QR code's page), section 9; neither takes a key.
import { createRoute, z } from "@hono/zod-openapi";
import { errorResponse } from "../platform/errors.ts";
import { limitBody, MAX_BODY_BYTES } from "../platform/middleware/body-limit.ts";
import { jsonBody } from "../platform/middleware/json-body.ts";
import { headerRef } from "../platform/response-headers.ts";
import { EnrollBodySchema, EnrolledKeySchema } from "./enroll.schemas.ts";

const answer = z.object({ data: EnrolledKeySchema });

export const exchange = createRoute({
  method: "post",
  path: "/enroll",
  operationId: "exchangeEnrollmentCode",
  tags: ["Enrollment"],
  summary: "Exchange an enrollment code for an API key",
  description:
    "Takes no API key: the code is the credential. Answers 201 with a new key bound to the code's sales agent, with the code's mode and scopes, and its secret. The same code sent again within 10 minutes of its use answers the same key and secret (200), so that a lost answer can be retried; after that, and for an unknown, expired or revoked code, 401 saying which. Once 10 exchanges from one client address have failed within 10 minutes, its further attempts get 429 with Retry-After.",
  security: [],
  request: {
    body: { content: { "application/json": { schema: EnrollBodySchema } }, required: true },
  },
  // Served by servedWithoutBody (enroll.index.ts): the body is read by jsonBody, as POST /keys/rotate's.
  middleware: [limitBody, jsonBody(EnrollBodySchema)],
  responses: {
    201: { description: "The new key, with its secret", content: { "application/json": { schema: answer } } },
    200: {
      description: "The same key and secret again: this code was exchanged less than 10 minutes ago",
      content: { "application/json": { schema: answer } },
    },
    400: errorResponse("A body that is not JSON"),
    401: errorResponse("The code is unknown (or mistyped), expired, already used or revoked", {
      "WWW-Authenticate": headerRef("WWW-Authenticate"),
    }),
    413: errorResponse(`A body over ${MAX_BODY_BYTES} bytes`),
    422: errorResponse("A field breaks its rule; `fields` lists every one"),
    429: errorResponse("Too many failed exchanges from this client address; see Retry-After", {
      "Retry-After": headerRef("Retry-After"),
    }),
    500: errorResponse("A fault of the service"),
    503: errorResponse("The database or the key store cannot be reached; see Retry-After", {
      "Retry-After": headerRef("Retry-After"),
    }),
  },
});

/** The field app's enrollment screen (docs/specification.md section 10). */
export const ENROLL_SCREEN = "/app/enroll";

export const page = createRoute({
  method: "get",
  path: "/enroll",
  operationId: "getEnrollmentPage",
  tags: ["Enrollment"],
  summary: "What a phone's camera opens from an enrollment QR code: the field app's enrollment screen",
  description: `Answers 303 to the field app's enrollment screen (\`${ENROLL_SCREEN}\`). The code travels in the link's fragment (\`/enroll#<code>\`), which never reaches the server; the browser keeps it across the redirect, so the app reads it there and exchanges it with POST /enroll.`,
  // Out of the document: a browser's hop with no 2XX or 4XX answer, which Redocly asks of every operation.
  hide: true,
  security: [],
  responses: {
    303: {
      description: "To the field app's enrollment screen",
      headers: z.object({ Location: z.string().openapi({ example: ENROLL_SCREEN }) }),
    },
  },
});
