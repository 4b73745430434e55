// Recording each key's use (docs/specification.md section 2, "Key usage and audit"). Every request
// that passed authentication is counted in this isolate's aggregate (one per isolate: module
// state), per key and hour, with the key's latest use. At most once per flush interval the
// aggregate is taken out whole and written to D1 in one batch of upserts, after the response
// (waitUntil; src/platform/middleware/usage.ts), on the unmetered binding: nothing is added to a request's
// critical path or to its Server-Timing counts.
//
// What can be lost, never doubled: counts are taken out of the aggregate before they are written,
// so two flushes never write the same request; a failed write is logged and its counts dropped
// (not put back, which could double them if D1 had in fact committed), and an isolate evicted
// before its next flush loses its unwritten counts (at most one interval of its traffic).
import { errorName, log } from "../platform/lib/log.ts";
import type { KeyDatabase } from "./keys.record.ts";
import { hourOf } from "./keys.usage-read.ts";

/** The flush interval when USAGE_FLUSH_SECONDS is unset or unreadable. */
export const DEFAULT_USAGE_FLUSH_SECONDS = 60;
/** Statements per D1 batch; an isolate with more keys in one interval writes several batches. */
const MAX_STATEMENTS_PER_BATCH = 100;

/**
 * USAGE_FLUSH_SECONDS: "off" disables recording (null); a whole number of seconds ("0": write
 * after every request); anything else the default of 60.
 */
export function usageFlushSeconds(value: unknown): number | null {
  if (value === "off") return null;
  if (typeof value === "string" && /^[0-9]{1,6}$/.test(value)) return Number(value);
  return DEFAULT_USAGE_FLUSH_SECONDS;
}

/** What one flush writes: requests per key and hour, and each key's latest use. */
export interface PendingUsage {
  /** key id -> hour -> requests */
  counts: Map<string, Map<number, number>>;
  /** key id -> ms of its latest request */
  lastUsed: Map<string, number>;
}

/** How many requests an aggregate holds. */
function requestsIn(usage: PendingUsage): number {
  let n = 0;
  for (const hours of usage.counts.values()) for (const c of hours.values()) n += c;
  return n;
}

export class UsageRecorder {
  private pending: PendingUsage = { counts: new Map(), lastUsed: new Map() };
  private lastFlushMs = Number.NEGATIVE_INFINITY;

  /** Counts one request of a key at `nowMs`. */
  record(keyId: string, nowMs: number): void {
    const hour = hourOf(nowMs);
    let hours = this.pending.counts.get(keyId);
    if (!hours) this.pending.counts.set(keyId, (hours = new Map()));
    hours.set(hour, (hours.get(hour) ?? 0) + 1);
    const last = this.pending.lastUsed.get(keyId);
    if (last === undefined || nowMs > last) this.pending.lastUsed.set(keyId, nowMs);
  }

  /**
   * The whole aggregate, taken out (the recorder starts empty again), when there is something and
   * the last flush started at least `intervalSeconds` ago; otherwise null.
   */
  takeIfDue(nowMs: number, intervalSeconds: number): PendingUsage | null {
    if (this.pending.counts.size === 0) return null;
    if (nowMs - this.lastFlushMs < intervalSeconds * 1000) return null;
    this.lastFlushMs = nowMs;
    const taken = this.pending;
    this.pending = { counts: new Map(), lastUsed: new Map() };
    return taken;
  }

  /** Requests counted and not yet taken (tests). */
  get unwritten(): number {
    return requestsIn(this.pending);
  }

  /** Forgets everything, as a new isolate starts (tests). */
  reset(): void {
    this.pending = { counts: new Map(), lastUsed: new Map() };
    this.lastFlushMs = Number.NEGATIVE_INFINITY;
  }
}

/** This isolate's recorder, shared by the requests it serves. */
export const usageRecorder = new UsageRecorder();

/** ISO 8601 UTC to the minute: "2026-05-01T10:07:00Z". */
export function toMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}:00Z`;
}

/** Writes one flush: an upsert per key and hour, and each key's last_used_at (never moved back). */
export async function writeUsage(db: KeyDatabase, usage: PendingUsage): Promise<void> {
  const upsert = db.prepare(
    "INSERT INTO key_usage (key_id, hour, requests) VALUES (?1, ?2, ?3) " +
      "ON CONFLICT(key_id, hour) DO UPDATE SET requests = requests + excluded.requests",
  );
  const touch = db.prepare("UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?1)");
  const statements: D1PreparedStatement[] = [];
  for (const [keyId, hours] of usage.counts) {
    for (const [hour, requests] of hours) statements.push(upsert.bind(keyId, hour, requests));
  }
  for (const [keyId, ms] of usage.lastUsed) statements.push(touch.bind(toMinute(ms), keyId));
  for (let i = 0; i < statements.length; i += MAX_STATEMENTS_PER_BATCH) {
    await db.batch(statements.slice(i, i + MAX_STATEMENTS_PER_BATCH));
  }
}

/** writeUsage that never throws: a failure is one warning line, and its counts are dropped. */
export async function flushUsage(db: KeyDatabase, usage: PendingUsage): Promise<void> {
  try {
    await writeUsage(db, usage);
  } catch (err) {
    log({ level: "warn", event: "key_usage_flush_failed", error: errorName(err), requests_dropped: requestsIn(usage) });
  }
}
