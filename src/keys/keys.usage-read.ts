// Reading each key's use (docs/specification.md section 2, "Key usage and audit"): two statements in one
// D1 batch for every key at once, never one per key.
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

export async function readUsage(db: KeyDatabase, now: Date): Promise<KeyWithUsage[]> {
  const nowHour = hourOf(now.getTime());
  const today = Math.floor(nowHour / 24);
  const firstDay = today - (USAGE_RETENTION_DAYS - 1);
  const [keys, days] = await db.batch<unknown>([
    db.prepare(`SELECT ${READ_COLUMNS}, last_used_at, copy_pending FROM api_keys ORDER BY created_at, id`),
    db
      .prepare(
        "SELECT key_id, hour / 24 AS day, sum(requests) AS n, " +
          "sum(CASE WHEN hour >= ?2 THEN requests ELSE 0 END) AS n24, sum(CASE WHEN hour >= ?3 THEN requests ELSE 0 END) AS n7 " +
          "FROM key_usage WHERE hour >= ?1 AND hour <= ?4 GROUP BY key_id, day",
      )
      .bind(firstDay * 24, nowHour - 23, nowHour - 167, nowHour),
  ]);
  const byKey = new Map<string, DayRow[]>();
  for (const row of (days?.results ?? []) as DayRow[]) {
    const list = byKey.get(row.key_id) ?? [];
    list.push(row);
    byKey.set(row.key_id, list);
  }
  return ((keys?.results ?? []) as (KeyRow & { last_used_at: string | null; copy_pending: number })[]).map((row) => {
    const rows = byKey.get(row.id) ?? [];
    const perDay = new Map(rows.map((r) => [r.day, r.n]));
    const daily = Array.from({ length: USAGE_RETENTION_DAYS }, (_, i) => ({
      date: new Date((firstDay + i) * 24 * HOUR_MS).toISOString().slice(0, 10),
      requests: perDay.get(firstDay + i) ?? 0,
    }));
    return {
      ...toRecord(row),
      copy_pending: row.copy_pending === 1,
      last_used_at: row.last_used_at,
      requests_24h: rows.reduce((sum, r) => sum + r.n24, 0),
      requests_7d: rows.reduce((sum, r) => sum + r.n7, 0),
      daily,
    };
  });
}
