// Who may sync which book, and the problems that depend on the key and the data (section 8).
import { createMiddleware } from "hono/factory";
import type { KeyRecord } from "../keys/keys.store.ts";
import type { Database } from "../platform/db/database.ts";
import type { AppEnv } from "../env.ts";
import { errors, type FieldError } from "../platform/errors.ts";
import { decodeSyncCursor, RECORD_SHAPE, type SyncCursor } from "./sync.cursor.ts";
import { agentStatement } from "./sync.queries.ts";
import { type Bound, runBatch } from "../platform/db/compiled.ts";

export const AGENT_ID = /^[1-9][0-9]{0,14}$/;

/** Before the parameters' checks: a key bound to one agent asking for another's book is a 403, not a 422. */
export const bookAccess = createMiddleware<AppEnv>(async (c, next) => {
  const agent = c.get("apiKey")?.agent_id ?? null;
  const asked = c.req.queries("salesagent_id");
  if (agent !== null && asked?.length === 1 && AGENT_ID.test(asked[0]!) && Number(asked[0]) !== agent) {
    throw errors.forbidden(`This API key is bound to sales agent ${agent}: it may sync that agent's book only`);
  }
  await next();
});

export const NOT_A_SYNC_CURSOR = "is not a sync cursor of this service: send next_cursor as it was given";

export const UNKNOWN_AGENT: FieldError = { field: "salesagent_id", message: "names no sales agent" };

export interface BookRequest {
  book: number | null;
  cursor: SyncCursor | null;
  fields: FieldError[];
  /** A book named by a key bound to no agent: whether that agent exists is still to be read. */
  checkAgent: boolean;
}

/** The book asked for and the cursor, with what is wrong with them short of the agent's existence; `valid` names the
 * parameters that passed the schema (only those are checked here, so that no parameter is reported twice). */
export function checkBook(
  key: KeyRecord,
  query: { salesagent_id?: number; cursor?: string },
  valid: { salesagent_id: boolean; cursor: boolean },
): BookRequest {
  const fields: FieldError[] = [];
  const book = valid.salesagent_id ? (query.salesagent_id ?? key.agent_id) : null;
  if (valid.salesagent_id && book === null) {
    fields.push({ field: "salesagent_id", message: "is required for a key that is not bound to a sales agent" });
  }
  // An agent-bound key's own agent needs no look-up: its book is the one it was made for.
  const checkAgent = valid.salesagent_id && key.agent_id === null && book !== null;
  let cursor: SyncCursor | null = null;
  if (valid.cursor && query.cursor !== undefined) {
    cursor = decodeSyncCursor(query.cursor);
    if (cursor === null || cursor.shape > RECORD_SHAPE) {
      fields.push({ field: "cursor", message: NOT_A_SYNC_CURSOR });
    } else if (book !== null && cursor.book !== book) {
      fields.push({ field: "cursor", message: "is for another sales agent's book: send the cursor of this book" });
    }
  }
  return { book, cursor, fields, checkAgent };
}

/** For an answer that is an error anyway: every problem, the agent's existence read in a round trip of its own. */
export async function allProblems(db: Database, request: BookRequest): Promise<FieldError[]> {
  if (!request.checkAgent) return request.fields;
  const [found] = await runBatch(db, [agentStatement(request.book!)]);
  return found.length === 0 ? [UNKNOWN_AGENT, ...request.fields] : request.fields;
}

/** A sync's first round trip, the agent's existence read in it when `checkAgent` (an unknown agent is the 422). */
export function firstBatch<const T extends readonly Bound<unknown>[]>(
  db: Database,
  book: number,
  checkAgent: boolean,
  statements: T,
): ReturnType<typeof runBatch<T>> {
  if (!checkAgent) return runBatch(db, statements);
  return runBatch(db, [agentStatement(book), ...statements]).then(([agent, ...rows]) => {
    if (agent.length === 0) throw errors.validation([UNKNOWN_AGENT]);
    return rows as unknown as Awaited<ReturnType<typeof runBatch<T>>>;
  });
}
