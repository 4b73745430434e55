// GET /sync, as the document describes it: its query and its answers (docs/specification.md section 8).
import { z } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import { commonErrorResponses, errorResponse } from "../platform/errors.ts";
import { integerParam, queryString } from "../platform/paging/query-params.ts";
import { headerRef } from "../platform/response-headers.ts";
import { apiRoute } from "../access/access.route.ts";
import { AGENT_ID, bookAccess } from "./sync.access.ts";
import { SyncAnswerSchema, walkCursorExample } from "./sync.schemas.ts";

export const DEFAULT_LIMIT = 200;
export const MAX_LIMIT = 1000;

// Documents the number a client must send, not the text it arrives as.
const integerDoc = (description: string, rules: { minimum: number; maximum?: number; default?: number }) =>
  ({ type: "integer", ...rules, param: { description } }) as { type: "integer"; param: { description: string } };

const query = z.object({
  salesagent_id: queryString()
    .regex(AGENT_ID, { error: "must be a sales agent's id: a positive integer" })
    .transform(Number)
    .optional()
    .openapi({
      ...integerDoc(
        "The sales agent whose book to sync. A key bound to an agent may leave it out (its own agent's book) and may name no other; any other key must name one.",
        { minimum: 1 },
      ),
      example: 7,
    }),
  limit: integerParam(1, MAX_LIMIT)
    .optional()
    .openapi(
      integerDoc(`Records in the answer, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`, {
        minimum: 1,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
      }),
    ),
  cursor: queryString()
    .optional()
    .openapi({
      param: {
        description:
          "Opaque: the `next_cursor` of the last answer applied; left out on the first sync. It belongs to the book, not to the key: it keeps working after the key is rotated or another key of the same agent is enrolled.",
      },
      type: "string",
      example: walkCursorExample,
    }),
});

export const sync = apiRoute({
  method: "get",
  scope: "read",
  path: "/sync",
  tags: ["Sync"],
  operationId: "syncBook",
  summary: "Sync a sales agent's book: the changes since a cursor",
  description:
    "The customers of one sales agent and their orders, as changes since `cursor` (all of them, as upserts, without one). " +
    "Apply the changes in order (upsert: store the record under its type and id; delete: remove it), store `next_cursor`, and ask again while `has_more` is true. " +
    "A record is exactly the item that GET /customers or GET /orders serves for it; an order never comes before its customer. " +
    "An answer holds at most `limit` records and 1,000,000 bytes. Caught up: no changes, the same cursor back; send the answer's ETag as If-None-Match to get 304. " +
    "A key bound to a sales agent that names another agent gets 403. Reads at the primary database, whatever X-D1-Bookmark says.",
  middleware: [bookAccess, etag()] as const,
  request: { query },
  responses: {
    200: {
      description: "The next changes of the book",
      headers: { ETag: headerRef("ETag") },
      content: { "application/json": { schema: SyncAnswerSchema } },
    },
    304: {
      description: "Not modified: If-None-Match matched the answer's ETag. No body.",
      headers: { ETag: headerRef("ETag") },
    },
    410: errorResponse(
      "SYNC_EXPIRED: the cursor is below its book's purge mark, or was made for an older record shape (the description says which). Sync again without a cursor; once that sync completes, drop every record it did not deliver.",
    ),
    ...commonErrorResponses,
  },
});
