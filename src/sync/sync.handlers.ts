// GET /sync: the next changes of the book that the key may read (docs/specification.md section 8).
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ZodError } from "zod";
import type { AppEnv } from "../platform/env.ts";
import { errors, fieldErrors, type FieldError } from "../platform/errors.ts";
import { AGENT_ID, checkBook } from "./sync.access.ts";
import { readChanges } from "./sync.book.ts";
import { RECORD_SHAPE } from "./sync.cursor.ts";
import { DEFAULT_LIMIT } from "./sync.routes.ts";
import type * as routes from "./sync.routes.ts";

const ORDER = ["salesagent_id", "limit", "cursor"];
const byParameter = (a: FieldError, b: FieldError) => ORDER.indexOf(a.field) - ORDER.indexOf(b.field);

// Always at the primary: a replica, or a client's bookmark, may lag behind writes that the answer
// must hold ("Converges").
export const sync: RouteHandler<typeof routes.sync, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  const db = c.get("services").primaryDb;
  const { book, cursor, fields } = await checkBook(db, c.get("apiKey")!, q, { salesagent_id: true, cursor: true });
  if (fields.length > 0) throw errors.validation(fields);
  if (cursor && cursor.shape < RECORD_SHAPE) {
    throw errors.syncExpired(
      "This cursor was made for an older shape of the records. Sync again without a cursor, then drop every record that this sync did not deliver.",
    );
  }
  const answer = await readChanges(db, book!, cursor, q.cursor, q.limit ?? DEFAULT_LIMIT);
  return c.json({ data: answer }, 200);
};

/** A failed schema check: one 422 with the problems of the parameters that passed it, too. */
export async function invalid(error: ZodError, c: Context<AppEnv>): Promise<never> {
  const fields = fieldErrors(error);
  const broken = new Set(fields.map((f) => f.field));
  const single = (name: string) => {
    const values = c.req.queries(name);
    return values?.length === 1 ? values[0] : undefined;
  };
  const agent = single("salesagent_id");
  const more = await checkBook(
    c.get("services").primaryDb,
    c.get("apiKey")!,
    {
      salesagent_id: agent !== undefined && AGENT_ID.test(agent) ? Number(agent) : undefined,
      cursor: single("cursor"),
    },
    { salesagent_id: !broken.has("salesagent_id"), cursor: !broken.has("cursor") },
  );
  throw errors.validation([...fields, ...more.fields].sort(byParameter));
}
