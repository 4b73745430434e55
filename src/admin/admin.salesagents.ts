// Finding sales agents to bind a key to: the admin API's search and the dashboard's agent picker.
import { errors } from "../platform/errors.ts";
import type { Database } from "../platform/db/database.ts";
import { AGENT_SEARCH_LIMIT, type AgentRow, salesAgentsByIds, searchSalesAgents } from "./admin.salesagents.queries.ts";

export { AGENT_SEARCH_LIMIT };

export interface AdminAgent {
  id: number;
  first_name: string;
  last_name: string;
  mobile_number: string;
}

export const MAX_AGENT_QUERY_LENGTH = 100;
/** Shared so that the admin API's query schema and the dashboard's search say the same. */
export const AGENT_QUERY_RULE = `must be at most ${MAX_AGENT_QUERY_LENGTH} characters`;

function toAgent(row: AgentRow): AdminAgent {
  return { id: row.id, first_name: row.firstName, last_name: row.lastName, mobile_number: row.mobileNumber };
}

export async function findAgents(db: Database, q: string | undefined): Promise<AdminAgent[]> {
  const query = q ?? "";
  if (query.length > MAX_AGENT_QUERY_LENGTH) {
    throw errors.validation([{ field: "q", message: AGENT_QUERY_RULE }]);
  }
  return (await searchSalesAgents(db, query)).map(toAgent);
}

/** Ids of agents that no longer exist are left out. */
export async function agentsByIds(db: Database, ids: Iterable<number>): Promise<Map<number, AdminAgent>> {
  const unique = [...new Set(ids)];
  return new Map((await salesAgentsByIds(db, unique)).map((row) => [row.id, toAgent(row)]));
}
