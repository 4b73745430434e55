// GET /sync: the next changes of the book that the key may read (docs/specification.md section 8).
import type { RouteHandler, z } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { ZodError } from "zod";
import type { AppEnv } from "../env.ts";
import { errors, fieldErrors, type FieldError } from "../platform/errors.ts";
import { toHex } from "../platform/lib/crypto.ts";
import { AGENT_ID, allProblems, checkBook } from "./sync.access.ts";
import { answerJson, readChanges } from "./sync.book.ts";
import { RECORD_SHAPE } from "./sync.cursor.ts";
import { DEFAULT_LIMIT } from "./sync.routes.ts";
import type * as routes from "./sync.routes.ts";
import type { SyncAnswerSchema } from "./sync.schemas.ts";

const ORDER = ["salesagent_id", "limit", "cursor"];
const byParameter = (a: FieldError, b: FieldError) => ORDER.indexOf(a.field) - ORDER.indexOf(b.field);

// Always at the primary: a replica or a bookmark may lag behind writes the answer must hold ("Converges").
export const sync: RouteHandler<typeof routes.sync, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  const db = c.get("services").primaryDb;
  const request = checkBook(c.get("apiKey")!, q, { salesagent_id: true, cursor: true });
  const { book, cursor } = request;
  const olderShape = cursor !== null && cursor.shape < RECORD_SHAPE;
  // An error answer reads the agent on its own; a sync reads it in its first batch.
  if (request.fields.length > 0 || olderShape) {
    const fields = await allProblems(db, request);
    if (fields.length > 0) throw errors.validation(fields);
    throw errors.syncExpired(
      "This cursor was made for an older shape of the records. Sync again without a cursor, then drop every record that this sync did not deliver.",
    );
  }
  const answer = await readChanges(db, {
    book: book!,
    checkAgent: request.checkAgent,
    cursor,
    cursorText: q.cursor,
    limit: q.limit ?? DEFAULT_LIMIT,
  });
  // Each change's JSON was made once, as it was measured; the typed answer is what its text parses to.
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (!answer.has_more && answer.changes.length > 0) headers.ETag = await caughtUpTag(answer.next_cursor);
  const res = c.body(answerJson(answer), 200, headers);
  return res as Response as Response & TypedResponse<JSONParsed<z.infer<typeof SyncAnswerSchema>>, 200, "json">;
};

/** The caught-up answer's ETag at `cursor`, also on an answer ending the changes, so the next check is one 304. */
async function caughtUpTag(cursor: string): Promise<string> {
  const body = new TextEncoder().encode(answerJson({ changes: [], next_cursor: cursor, has_more: false }));
  return `"${toHex(new Uint8Array(await crypto.subtle.digest("SHA-1", body)))}"`;
}

/** A failed schema check: one 422 with the problems of the parameters that passed it, too. */
export async function invalid(error: ZodError, c: Context<AppEnv>): Promise<never> {
  const fields = fieldErrors(error);
  const broken = new Set(fields.map((f) => f.field));
  const single = (name: string) => {
    const values = c.req.queries(name);
    return values?.length === 1 ? values[0] : undefined;
  };
  const agent = single("salesagent_id");
  const more = checkBook(
    c.get("apiKey")!,
    {
      salesagent_id: agent !== undefined && AGENT_ID.test(agent) ? Number(agent) : undefined,
      cursor: single("cursor"),
    },
    { salesagent_id: !broken.has("salesagent_id"), cursor: !broken.has("cursor") },
  );
  const problems = await allProblems(c.get("services").primaryDb, more);
  throw errors.validation([...fields, ...problems].sort(byParameter));
}
