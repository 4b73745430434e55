// The sales agent queries behind the admin API's search and the dashboard's agent picker.
import { asc, or, sql } from "drizzle-orm";
import { salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";

export const AGENT_SEARCH_LIMIT = 20;

const COLUMNS = {
  id: salesAgents.id,
  firstName: salesAgents.firstName,
  lastName: salesAgents.lastName,
  mobileNumber: salesAgents.mobileNumber,
};

export type AgentRow = { id: number; firstName: string; lastName: string; mobileNumber: string };

/** LIKE's wildcards and its escape character, taken literally. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** SQLite's LIKE ignores case for ASCII letters only. */
export function searchSalesAgents(db: Database, query: string, limit = AGENT_SEARCH_LIMIT): Promise<AgentRow[]> {
  const q = query.trim();
  const base = db.select(COLUMNS).from(salesAgents);
  const filtered =
    q === ""
      ? base
      : base.where(
          or(
            sql`(${salesAgents.firstName} || ' ' || ${salesAgents.lastName}) LIKE ${contains(q)} ESCAPE '\\'`,
            sql`${salesAgents.mobileNumber} LIKE ${contains(q)} ESCAPE '\\'`,
          ),
        );
  return filtered.orderBy(asc(salesAgents.id)).limit(limit);
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
