// Recording each key's use (docs/specification.md section 2, "Key usage and audit"): counted per isolate,
// flushed to D1 after the response on the unmetered binding, so off the critical path and Server-Timing.
import { errorName, log } from "../platform/lib/log.ts";
import type { KeyDatabase } from "./keys.record.ts";
import { hourOf } from "./keys.usage-read.ts";

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

/**
 * Never throws. Counts may be lost, never doubled: a failed write's counts are dropped, not put back (D1
 * may have committed), and an evicted isolate loses at most one interval's unwritten counts.
 */
export async function flushUsage(db: KeyDatabase, usage: PendingUsage): Promise<void> {
  try {
    await writeUsage(db, usage);
  } catch (err) {
    log({ level: "warn", event: "key_usage_flush_failed", error: errorName(err), requests_dropped: requestsIn(usage) });
  }
}
