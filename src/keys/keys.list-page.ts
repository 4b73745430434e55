// One page of the dashboard's key list (docs/specification.md section 9, "The dashboard's key list"): the
// filters and the counts from one statement that reads each key record once (with its agent's name),
// then the use of the page's keys only.
import type { KeyDatabase, KeyState } from "./keys.record.ts";
import { READ_COLUMNS, toRecord } from "./keys.records.ts";
import type { KeyMode } from "./keys.secret.ts";
import { keyState } from "./keys.state.ts";
import { type KeyWithUsage, readUsageOf, type UsageKeyRow, withUsage } from "./keys.usage-read.ts";

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
  /** Keys that match every filter. */
  matching: number;
  /**
   * Keys that match the name, agent and mode filters, and of them how many are in each state and each
   * rotation state, and how many old keys were used after their successor: the status and rotation
   * filters narrow the list, never the counts, so that they show the whole of what is filtered.
   */
  counts: KeyListCounts;
  /** Every agent that some key is bound to, for the agent filter. */
  agents: KeyListAgent[];
}

export type KeyListCounts = { keys: number; usedAfterSuccessor: number } & Record<KeyState, number> &
  Record<`rotation_${RotationListState}`, number>;

type ListRow = UsageKeyRow & { agent_first_name: string | null; agent_last_name: string | null };

// No ORDER BY: the page is sorted here, which costs D1 no sorter rows.
const LIST_SQL =
  `SELECT ${READ_COLUMNS.split(", ")
    .map((c) => `k.${c}`)
    .join(", ")}, k.last_used_at, k.copy_pending, ` +
  "a.first_name AS agent_first_name, a.last_name AS agent_last_name " +
  "FROM api_keys k LEFT JOIN sales_agents a ON a.id = k.agent_id";

export async function readKeyListPage(
  db: KeyDatabase,
  filters: KeyListFilters,
  page: { offset: number; size: number },
  now: Date,
): Promise<KeyListPage> {
  const nowIso = now.toISOString();
  const { results } = await db.prepare(LIST_SQL).all<ListRow>();
  const name = filters.name?.toLowerCase();
  const counts: KeyListCounts = {
    keys: 0,
    usedAfterSuccessor: 0,
    ...(Object.fromEntries(KEY_STATES.map((s) => [s, 0])) as Record<KeyState, number>),
    ...(Object.fromEntries(ROTATION_STATES.map((r) => [`rotation_${r}`, 0])) as Record<
      `rotation_${RotationListState}`,
      number
    >),
  };
  const agents = new Map<number, KeyListAgent>();
  const matching: ListRow[] = [];
  for (const row of results) {
    if (row.agent_id !== null && !agents.has(row.agent_id)) {
      agents.set(row.agent_id, { id: row.agent_id, first_name: row.agent_first_name, last_name: row.agent_last_name });
    }
    if (name !== undefined && !row.name.toLowerCase().includes(name)) continue;
    if (
      filters.agent === "none" ? row.agent_id !== null : filters.agent !== undefined && row.agent_id !== filters.agent
    )
      continue;
    if (filters.mode !== undefined && row.mode !== filters.mode) continue;
    const record = toRecord(row);
    const state = keyState(record, nowIso);
    const rotation = record.rotation?.state ?? "none";
    counts.keys++;
    counts[state]++;
    counts[`rotation_${rotation}`]++;
    if ((record.rotation?.old_key_uses_after_successor ?? 0) > 0) counts.usedAfterSuccessor++;
    if (filters.status !== undefined && state !== filters.status) continue;
    if (filters.rotation !== undefined && rotation !== filters.rotation) continue;
    matching.push(row);
  }
  matching.sort((a, b) => cmp(b.created_at, a.created_at) || cmp(b.id, a.id));
  const rows = matching.slice(page.offset, page.offset + page.size);
  const usage = await readUsageOf(
    db,
    rows.map((r) => r.id),
    now,
  );
  return {
    keys: rows.map((row) => withUsage(row, usage)),
    matching: matching.length,
    counts,
    agents: [...agents.values()],
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
