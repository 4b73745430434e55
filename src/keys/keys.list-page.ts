// The dashboard's key list, one page (docs/specification.md section 9): filters in SQL on an index walked newest first
// (keyset, never OFFSET), counts from migration 0023's kept rows, then the use of the page's keys only.
import type { KeyDatabase, KeyState } from "./keys.record.ts";
import { READ_COLUMNS } from "./keys.records.ts";
import { KEY_ID_PATTERN, type KeyMode } from "./keys.secret.ts";
import { type KeyWithUsage, readUsageOf, type UsageKeyRow, withUsage } from "./keys.usage.ts";

export const KEY_STATES = ["active", "grace", "expired", "revoked"] as const satisfies readonly KeyState[];
/** A key's rotation as the list filters it: "none" for a key whose rotation was never asked for. */
export const ROTATION_STATES = ["none", "due", "rotated", "rolled"] as const;
export type RotationListState = (typeof ROTATION_STATES)[number];

export interface KeyListFilters {
  /** A part of the name, in any letter case. */
  name?: string;
  /** An agent's id, or "none": the keys bound to no agent. */
  agent?: number | "none";
  mode?: KeyMode;
  status?: KeyState;
  rotation?: RotationListState;
}

export interface KeyListAgent {
  id: number;
  /** Null when no sales agent has that id any more. */
  first_name: string | null;
  last_name: string | null;
}

export interface KeyListPage {
  /** The page's keys, newest first, each with its use. */
  keys: KeyWithUsage[];
  /** The last key of the page when older keys match too (the next page starts after it), else null. */
  older: string | null;
  /** The whole fleet's counts, whatever the filters: they are kept as the keys change, never counted over the table
   * (a key's status changes with the clock, so it has no kept count). */
  counts: KeyListCounts;
  /** Every agent that some key is bound to, for the agent filter. */
  agents: KeyListAgent[];
}

export type KeyListCounts = { keys: number; usedAfterSuccessor: number } & Record<
  `rotation_${RotationListState}`,
  number
>;

/** row_counts' names that migration 0023 keeps, to the counts' own. */
const COUNTED = {
  api_keys: "keys",
  "api_keys.late": "usedAfterSuccessor",
  ...Object.fromEntries(ROTATION_STATES.map((r) => [`api_keys.rotation.${r}`, `rotation_${r}`])),
} as Record<string, keyof KeyListCounts>;
const AGENT_COUNT = "api_keys.agent.";

// Every kept count of the keys (a handful of rows and one per agent with keys), each agent's name by its primary key.
const COUNTS_SQL =
  "SELECT r.name, r.n, a.first_name, a.last_name FROM row_counts r LEFT JOIN sales_agents a " +
  `ON substr(r.name, 1, ${AGENT_COUNT.length}) = '${AGENT_COUNT}' ` +
  `AND a.id = CAST(substr(r.name, ${AGENT_COUNT.length + 1}) AS INTEGER) ` +
  "WHERE r.name >= 'api_keys' AND r.name < 'api_keys/'";

// keyState (keys.record.ts) in SQL, ?1 the moment as ISO text.
const REVOKED = "(k.revoked_at IS NOT NULL AND k.revoked_at <= ?1)";
const EXPIRED = `(NOT ${REVOKED} AND k.expires_at IS NOT NULL AND k.expires_at <= ?1)`;
const IN_GRACE = "(k.replaced_by IS NOT NULL AND k.expires_at IS NOT NULL)";
const STATE_SQL: Record<KeyState, string> = {
  revoked: REVOKED,
  expired: EXPIRED,
  grace: `(NOT ${REVOKED} AND NOT ${EXPIRED} AND ${IN_GRACE})`,
  active: `(NOT ${REVOKED} AND NOT ${EXPIRED} AND NOT ${IN_GRACE})`,
};

type CountRow = { name: string; n: number; first_name: string | null; last_name: string | null };

/** Newest first, after the key `before` (its id) when given. The agent, mode and rotation filters each have an index
 * of (filter, created_at, id), so a page filtered by one reads about one page of key rows; the name and status
 * filters are checked on the rows walked, so a rare name reads as many rows as it takes to fill the page. */
export async function readKeyListPage(
  db: KeyDatabase,
  filters: KeyListFilters,
  page: { before: string | null; size: number },
  now: Date,
): Promise<KeyListPage> {
  const nowIso = now.toISOString();
  const where: string[] = [];
  const params: unknown[] = [nowIso, page.size + 1];
  const bind = (value: unknown) => `?${params.push(value)}`;
  if (page.before !== null) {
    const anchor = bind(KEY_ID_PATTERN.test(page.before) ? page.before : null);
    where.push(`(k.created_at, k.id) < (SELECT created_at, id FROM api_keys WHERE id = ${anchor})`);
  }
  if (filters.agent === "none") where.push("k.agent_id IS NULL");
  else if (filters.agent !== undefined) where.push(`k.agent_id = ${bind(filters.agent)}`);
  if (filters.mode !== undefined) where.push(`k.mode = ${bind(filters.mode)}`);
  if (filters.rotation === "none") where.push("k.rotation_state IS NULL");
  else if (filters.rotation !== undefined) where.push(`k.rotation_state = ${bind(filters.rotation)}`);
  // instr, not LIKE: % and _ in the filter are plain characters.
  if (filters.name !== undefined) where.push(`instr(lower(k.name), ${bind(filters.name.toLowerCase())}) > 0`);
  if (filters.status !== undefined) where.push(STATE_SQL[filters.status]);
  const sql =
    `SELECT ${READ_COLUMNS.split(", ")
      .map((c) => `k.${c}`)
      .join(", ")}, k.last_used_at, k.copy_pending FROM api_keys k ` +
    `${where.length > 0 ? `WHERE ${where.join(" AND ")} ` : ""}` +
    "ORDER BY k.created_at DESC, k.id DESC LIMIT ?2";
  const [listed, kept] = await db.batch<unknown>([db.prepare(sql).bind(...params), db.prepare(COUNTS_SQL)]);
  const results = (listed?.results ?? []) as UsageKeyRow[];
  const rows = results.slice(0, page.size);
  const counts = Object.fromEntries(Object.values(COUNTED).map((k) => [k, 0])) as KeyListCounts;
  const agents: KeyListAgent[] = [];
  for (const row of (kept?.results ?? []) as CountRow[]) {
    const field = COUNTED[row.name];
    if (field !== undefined) counts[field] = row.n;
    else if (row.name.startsWith(AGENT_COUNT) && row.n > 0) {
      const id = Number(row.name.slice(AGENT_COUNT.length));
      agents.push({ id, first_name: row.first_name, last_name: row.last_name });
    }
  }
  const usage = await readUsageOf(
    db,
    rows.map((r) => r.id),
    now,
  );
  return {
    keys: rows.map((row) => withUsage(row, usage)),
    older: results.length > page.size ? rows.at(-1)!.id : null,
    counts,
    agents,
  };
}
