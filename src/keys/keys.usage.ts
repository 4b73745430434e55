// Recording each key's use (docs/specification.md section 2, "Key usage and audit"): counted per isolate, flushed to D1
// after the response on the unmetered binding, so off the critical path and Server-Timing.
import { errorName, log } from "../platform/lib/log.ts";
import type { KeyDatabase, KeyRecord } from "./keys.record.ts";
import { type KeyRow, READ_COLUMNS, toRecord } from "./keys.records.ts";
import { AUDIT_RETENTION_DAYS } from "./keys.audit.ts";

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

  /** For tests. */
  get unwritten(): number {
    return requestsIn(this.pending);
  }

  /** For tests: as a new isolate starts. */
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
  const upsert = db.prepare(
    "INSERT INTO key_usage (key_id, hour, requests) VALUES (?1, ?2, ?3) " +
      "ON CONFLICT(key_id, hour) DO UPDATE SET requests = requests + excluded.requests",
  );
  const touch = db.prepare(
    "UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?1)",
  );
  const statements: D1PreparedStatement[] = [];
  for (const [keyId, hours] of usage.counts) {
    for (const [hour, requests] of hours) statements.push(upsert.bind(keyId, hour, requests));
  }
  for (const [keyId, ms] of usage.lastUsed) statements.push(touch.bind(toMinute(ms), keyId));
  const late = db.prepare(
    "UPDATE api_keys SET old_key_uses_after_successor = old_key_uses_after_successor + ?1 WHERE id = ?2",
  );
  for (const [keyId, n] of usage.lateUses) statements.push(late.bind(n, keyId));
  for (let i = 0; i < statements.length; i += MAX_STATEMENTS_PER_BATCH) {
    await db.batch(statements.slice(i, i + MAX_STATEMENTS_PER_BATCH));
  }
}

/** Never throws. Counts may be lost, never doubled: a failed write's counts are dropped, not put back (D1 may have
 * committed), and an evicted isolate loses at most one interval's unwritten counts. */
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
  const [keys, days] = await db.batch<unknown>([
    db.prepare(`SELECT ${READ_COLUMNS}, last_used_at, copy_pending FROM api_keys ORDER BY created_at, id`),
    usageStatement(db, now, null),
  ]);
  const usage = usageByKey((days?.results ?? []) as DayRow[], now);
  return ((keys?.results ?? []) as UsageKeyRow[]).map((row) => withUsage(row, usage));
}

/** The use of the given keys only (the dashboard's page): their rows of key_usage, by its primary key, whatever the
 * other keys' traffic. */
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

const DAY_MS = 24 * HOUR_MS;

export interface RetentionResult {
  usage_rows_deleted: number;
  audit_rows_deleted: number;
}

export async function deleteExpiredKeyData(db: KeyDatabase, now: Date): Promise<RetentionResult> {
  const oldestHourKept = hourOf(now.getTime()) - USAGE_RETENTION_DAYS * 24 + 1;
  const auditBefore = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  const [usage, audit] = await db.batch([
    db.prepare("DELETE FROM key_usage WHERE hour < ?1").bind(oldestHourKept),
    db.prepare("DELETE FROM key_audit WHERE at < ?1").bind(auditBefore),
  ]);
  return { usage_rows_deleted: usage?.meta.changes ?? 0, audit_rows_deleted: audit?.meta.changes ?? 0 };
}

/** A key revoked, expired or replaced this long ago goes, with its KV copy and usage (its audit stays). */
export const DEAD_KEY_RETENTION_DAYS = 90;
/** Keys per chunk (each a KV delete), and chunks per run: one run stays well inside a Worker's subrequests. */
export const DEAD_KEYS_PER_CHUNK = 100;
export const DEAD_KEY_CHUNKS_PER_RUN = 5;

/** Keys revoked, expired or replaced (a replaced key expires when its grace ends) more than 90 days before `now`:
 * each chunk deletes the KV copies first, then in one D1 batch the usage rows and the records, so that a run cut
 * short leaves at worst records whose copies are gone (which authenticate no better) for the next run. */
export async function deleteDeadKeys(db: KeyDatabase, kv: KVNamespace, now: Date): Promise<{ keys_deleted: number }> {
  const before = new Date(now.getTime() - DEAD_KEY_RETENTION_DAYS * DAY_MS).toISOString();
  const dead = "(revoked_at < ?1 OR expires_at < ?1)";
  let deleted = 0;
  for (let chunk = 0; chunk < DEAD_KEY_CHUNKS_PER_RUN; chunk++) {
    const { results } = await db
      .prepare(
        `SELECT id, hash FROM api_keys WHERE revoked_at < ?1 UNION SELECT id, hash FROM api_keys WHERE expires_at < ?1 ` +
          "ORDER BY id LIMIT ?2",
      )
      .bind(before, DEAD_KEYS_PER_CHUNK)
      .all<{ id: string; hash: string }>();
    if (results.length === 0) break;
    await Promise.all(results.map((k) => kv.delete(`hash:${k.hash}`)));
    const ids = JSON.stringify(results.map((k) => k.id));
    const [, keys] = await db.batch([
      db.prepare("DELETE FROM key_usage WHERE key_id IN (SELECT value FROM json_each(?1))").bind(ids),
      // RETURNING, not meta.changes: D1 counts the changes of migration 0023's triggers with the statement's.
      db
        .prepare(`DELETE FROM api_keys WHERE id IN (SELECT value FROM json_each(?2)) AND ${dead} RETURNING id`)
        .bind(before, ids),
    ]);
    deleted += keys?.results.length ?? 0;
    if (results.length < DEAD_KEYS_PER_CHUNK) break;
  }
  return { keys_deleted: deleted };
}
