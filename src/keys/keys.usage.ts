// Each key's use (docs/specification.md section 2): counted per isolate, flushed to D1 after the response, unmetered.
import { errorName, log } from "../platform/lib/log.ts";
import { type KeyDatabase, type KeyRecord, type KeyState, toRecord } from "./keys.record.ts";
import { keyQueries, type UsageKeyRow } from "./keys.queries.ts";
import { KEY_ID_PATTERN, type KeyMode } from "./keys.secret.ts";
import {
  AGENT_COUNT,
  type CountRow,
  keyCountsStatement,
  keyPageStatement,
  usageQueries,
} from "./keys.usage.queries.ts";

export const DEFAULT_USAGE_FLUSH_SECONDS = 60;
const MAX_STATEMENTS_PER_BATCH = 100;

/** USAGE_FLUSH_SECONDS: "off" records nothing (null), "0" writes after every request, junk is the default. */
export function usageFlushSeconds(value: unknown): number | null {
  if (value === "off") return null;
  if (typeof value === "string" && /^[0-9]{1,6}$/.test(value)) return Number(value);
  return DEFAULT_USAGE_FLUSH_SECONDS;
}

export interface PendingUsage {
  /** key id -> hour -> requests */
  counts: Map<string, Map<number, number>>;
  /** key id -> ms of its latest request */
  lastUsed: Map<string, number>;
  /** key id -> uses of a rotated old key after its successor's first use (docs/specification.md section 9) */
  lateUses: Map<string, number>;
}

const nothingPending = (): PendingUsage => ({ counts: new Map(), lastUsed: new Map(), lateUses: new Map() });

function requestsIn(usage: PendingUsage): number {
  let n = 0;
  for (const hours of usage.counts.values()) for (const c of hours.values()) n += c;
  return n;
}

export class UsageRecorder {
  private pending: PendingUsage = nothingPending();
  private lastFlushMs = Number.NEGATIVE_INFINITY;

  record(keyId: string, nowMs: number): void {
    const hour = hourOf(nowMs);
    let hours = this.pending.counts.get(keyId);
    if (!hours) this.pending.counts.set(keyId, (hours = new Map()));
    hours.set(hour, (hours.get(hour) ?? 0) + 1);
    const last = this.pending.lastUsed.get(keyId);
    if (last === undefined || nowMs > last) this.pending.lastUsed.set(keyId, nowMs);
  }

  /** Written with the counts, so that it needs no D1 work on the request path either. */
  recordLateUse(keyId: string): void {
    this.pending.lateUses.set(keyId, (this.pending.lateUses.get(keyId) ?? 0) + 1);
  }

  /** Taken out before it is written, so that two flushes never write the same request. */
  takeIfDue(nowMs: number, intervalSeconds: number): PendingUsage | null {
    if (this.pending.counts.size === 0) return null;
    if (nowMs - this.lastFlushMs < intervalSeconds * 1000) return null;
    this.lastFlushMs = nowMs;
    const taken = this.pending;
    this.pending = nothingPending();
    return taken;
  }

  get unwritten(): number {
    return requestsIn(this.pending);
  }

  reset(): void {
    this.pending = nothingPending();
    this.lastFlushMs = Number.NEGATIVE_INFINITY;
  }
}

export const usageRecorder = new UsageRecorder();

export function toMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}:00Z`;
}

export async function writeUsage(db: KeyDatabase, usage: PendingUsage): Promise<void> {
  const [upsert, touch, late] = [usageQueries.upsert(db), usageQueries.touch(db), usageQueries.late(db)];
  const statements: D1PreparedStatement[] = [];
  for (const [keyId, hours] of usage.counts) {
    for (const [hour, requests] of hours) statements.push(upsert.bind(keyId, hour, requests));
  }
  for (const [keyId, ms] of usage.lastUsed) statements.push(touch.bind(toMinute(ms), keyId));
  for (const [keyId, n] of usage.lateUses) statements.push(late.bind(n, keyId));
  for (let i = 0; i < statements.length; i += MAX_STATEMENTS_PER_BATCH) {
    await db.batch(statements.slice(i, i + MAX_STATEMENTS_PER_BATCH));
  }
}

/** Never throws. Counts may be lost, never doubled: a failed write's are dropped (D1 may have committed them). */
export async function flushUsage(db: KeyDatabase, usage: PendingUsage): Promise<void> {
  try {
    await writeUsage(db, usage);
  } catch (err) {
    log({ level: "warn", event: "key_usage_flush_failed", error: errorName(err), requests_dropped: requestsIn(usage) });
  }
}

export const HOUR_MS = 3_600_000;
export const USAGE_RETENTION_DAYS = 30;

export interface KeyUsage {
  last_used_at: string | null;
  /** Requests in the current hour and the 23 before it. */
  requests_24h: number;
  /** Requests in the current hour and the 167 before it. */
  requests_7d: number;
  /** Per UTC day, oldest first, today included; days without use are 0. */
  daily: { date: string; requests: number }[];
}

export type KeyWithUsage = KeyRecord & KeyUsage & { copy_pending: boolean };

/** key_usage's `hour`: whole hours since the Unix epoch. */
export function hourOf(ms: number): number {
  return Math.floor(ms / HOUR_MS);
}

interface DayRow {
  key_id: string;
  day: number;
  n: number;
  n24: number;
  n7: number;
}

/** Every key with its use, for the admin API and `keys list`: one batch, never one statement per key. */
export async function readUsage(db: KeyDatabase, now: Date): Promise<KeyWithUsage[]> {
  const [keys, days] = await db.batch<unknown>([keyQueries.listWithUse(db), usageStatement(db, now, null)]);
  const usage = usageByKey((days?.results ?? []) as DayRow[], now);
  return ((keys?.results ?? []) as UsageKeyRow[]).map((row) => withUsage(row, usage));
}

/** The use of the given keys only (the dashboard's page), by key_usage's primary key. */
export async function readUsageOf(db: KeyDatabase, ids: readonly string[], now: Date): Promise<KeyUsageOf> {
  if (ids.length === 0) return usageByKey([], now);
  const { results } = await usageStatement(db, now, ids).all<DayRow>();
  return usageByKey(results, now);
}

/** Per key id, its days; keys without use in the 30 days are absent. */
export interface KeyUsageOf {
  days: Map<string, DayRow[]>;
  firstDay: number;
}

function usageStatement(db: KeyDatabase, now: Date, ids: readonly string[] | null): D1PreparedStatement {
  const nowHour = hourOf(now.getTime());
  return usageQueries.days(db, [firstDayOf(now) * 24, nowHour - 23, nowHour - 167, nowHour], ids);
}

function usageByKey(rows: readonly DayRow[], now: Date): KeyUsageOf {
  const days = new Map<string, DayRow[]>();
  for (const row of rows) {
    const list = days.get(row.key_id) ?? [];
    list.push(row);
    days.set(row.key_id, list);
  }
  return { days, firstDay: firstDayOf(now) };
}

/** The first of the 30 days shown, in days since the epoch. */
function firstDayOf(now: Date): number {
  return Math.floor(hourOf(now.getTime()) / 24) - (USAGE_RETENTION_DAYS - 1);
}

export function withUsage(row: UsageKeyRow, usage: KeyUsageOf): KeyWithUsage {
  const rows = usage.days.get(row.id) ?? [];
  const perDay = new Map(rows.map((r) => [r.day, r.n]));
  const daily = Array.from({ length: USAGE_RETENTION_DAYS }, (_, i) => ({
    date: new Date((usage.firstDay + i) * 24 * HOUR_MS).toISOString().slice(0, 10),
    requests: perDay.get(usage.firstDay + i) ?? 0,
  }));
  return {
    ...toRecord(row),
    copy_pending: row.copy_pending === 1,
    last_used_at: row.last_used_at,
    requests_24h: rows.reduce((sum, r) => sum + r.n24, 0),
    requests_7d: rows.reduce((sum, r) => sum + r.n7, 0),
    daily,
  };
}

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
  /** The fleet's kept counts, whatever the filters (status changes with the clock, so it has none). */
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

/** Newest first, after the key `before`; what each filter reads: keyPageStatement (keys.usage.queries.ts). */
export async function readKeyListPage(
  db: KeyDatabase,
  filters: KeyListFilters,
  page: { before: string | null; size: number },
  now: Date,
): Promise<KeyListPage> {
  const before = page.before === null ? undefined : KEY_ID_PATTERN.test(page.before) ? page.before : null;
  const [listed, kept] = await db.batch<unknown>([
    keyPageStatement(db, { ...filters, before }, now.toISOString(), page.size),
    keyCountsStatement(db),
  ]);
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
