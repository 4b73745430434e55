// Reading keys' use (docs/specification.md section 2, "Key usage and audit"): one batch for all the keys
// asked about, never a statement per key.
import type { KeyDatabase, KeyRecord } from "./keys.record.ts";
import { type KeyRow, READ_COLUMNS, toRecord } from "./keys.records.ts";

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
  const [keys, days] = await db.batch<unknown>([
    db.prepare(`SELECT ${READ_COLUMNS}, last_used_at, copy_pending FROM api_keys ORDER BY created_at, id`),
    usageStatement(db, now, null),
  ]);
  const usage = usageByKey((days?.results ?? []) as DayRow[], now);
  return ((keys?.results ?? []) as UsageKeyRow[]).map((row) => withUsage(row, usage));
}

/**
 * The use of the given keys only (the dashboard's page): their rows of key_usage, by its primary key,
 * whatever the other keys' traffic.
 */
export async function readUsageOf(db: KeyDatabase, ids: readonly string[], now: Date): Promise<KeyUsageOf> {
  if (ids.length === 0) return usageByKey([], now);
  const { results } = await usageStatement(db, now, ids).all<DayRow>();
  return usageByKey(results, now);
}

export type UsageKeyRow = KeyRow & { last_used_at: string | null; copy_pending: number };

/** Per key id, its days; keys without use in the 30 days are absent. */
export interface KeyUsageOf {
  days: Map<string, DayRow[]>;
  firstDay: number;
}

function usageStatement(db: KeyDatabase, now: Date, ids: readonly string[] | null): D1PreparedStatement {
  const nowHour = hourOf(now.getTime());
  const firstDay = firstDayOf(now);
  // A JSON list rather than one parameter per id: D1 binds at most 100 parameters.
  const only = ids === null ? "" : "AND key_id IN (SELECT value FROM json_each(?5)) ";
  const bound = [firstDay * 24, nowHour - 23, nowHour - 167, nowHour, ...(ids === null ? [] : [JSON.stringify(ids)])];
  return db
    .prepare(
      "SELECT key_id, hour / 24 AS day, sum(requests) AS n, " +
        "sum(CASE WHEN hour >= ?2 THEN requests ELSE 0 END) AS n24, sum(CASE WHEN hour >= ?3 THEN requests ELSE 0 END) AS n7 " +
        `FROM key_usage WHERE hour >= ?1 AND hour <= ?4 ${only}GROUP BY key_id, day`,
    )
    .bind(...bound);
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
