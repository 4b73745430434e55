// The sales agent queries behind the admin API's search and the dashboard's agent picker.
import { and, asc, eq, or, sql, type SQL } from "drizzle-orm";
import { salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import { rowLimit } from "../platform/db/sql.queries.ts";
import { containsPattern } from "../platform/lib/like.ts";

export const AGENT_SEARCH_LIMIT = 20;

const COLUMNS = {
  id: salesAgents.id,
  firstName: salesAgents.firstName,
  lastName: salesAgents.lastName,
  mobileNumber: salesAgents.mobileNumber,
};

export type AgentRow = { id: number; firstName: string; lastName: string; mobileNumber: string };

/** `column` contains `text`, ASCII case ignored: LIKE on a prefix within D1's 50 bytes, instr() on the rest. */
function contains(column: SQL, text: string): SQL {
  const { pattern, complete } = containsPattern(text);
  const like = sql`${column} LIKE ${pattern} ESCAPE '\\'`;
  return complete ? like : and(like, sql`instr(lower(${column}), lower(${text})) > 0`)!;
}

/** By name, mobile number, or id ("7" or "#7": the id that `keys create --agent 7` takes). */
export function searchSalesAgents(db: Database, query: string, limit = AGENT_SEARCH_LIMIT): Promise<AgentRow[]> {
  const q = query.trim();
  const base = db.select(COLUMNS).from(salesAgents);
  const id = /^#?\d{1,15}$/.test(q) ? Number(q.replace("#", "")) : null;
  const filtered =
    q === ""
      ? base
      : base.where(
          or(
            id === null ? undefined : eq(salesAgents.id, id),
            contains(sql`(${salesAgents.firstName} || ' ' || ${salesAgents.lastName})`, q),
            contains(sql`${salesAgents.mobileNumber}`, q),
          ),
        );
  // The agent whose id was typed comes first.
  const order = id === null ? [asc(salesAgents.id)] : [sql`${salesAgents.id} <> ${id}`, asc(salesAgents.id)];
  return filtered.orderBy(...order).limit(rowLimit(limit));
}

export function salesAgentsByIds(db: Database, ids: readonly number[]): Promise<AgentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return (
    db
      .select(COLUMNS)
      .from(salesAgents)
      // One JSON parameter however many ids: D1 binds at most 100 parameters to a statement.
      .where(sql`${salesAgents.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
      .orderBy(asc(salesAgents.id))
  );
}
