// Deletes key usage older than 30 days and audit entries older than 400 days (docs/specification.md
// section 2). Run daily by the cron trigger (src/scheduled.ts); one D1 batch, both on indexes.
import { AUDIT_RETENTION_DAYS } from "./keys.audit.ts";
import type { KeyDatabase } from "./keys.record.ts";
import { HOUR_MS, hourOf, USAGE_RETENTION_DAYS } from "./keys.usage-read.ts";

const DAY_MS = 24 * HOUR_MS;

export interface RetentionResult {
  usage_rows_deleted: number;
  audit_rows_deleted: number;
}

/** Usage rows whose hour began 30 days or more before `now`; audit entries 400 days or more before it. */
export async function deleteExpiredKeyData(db: KeyDatabase, now: Date): Promise<RetentionResult> {
  const oldestHourKept = hourOf(now.getTime()) - USAGE_RETENTION_DAYS * 24 + 1;
  const auditBefore = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  const [usage, audit] = await db.batch([
    db.prepare("DELETE FROM key_usage WHERE hour < ?1").bind(oldestHourKept),
    db.prepare("DELETE FROM key_audit WHERE at < ?1").bind(auditBefore),
  ]);
  return { usage_rows_deleted: usage?.meta.changes ?? 0, audit_rows_deleted: audit?.meta.changes ?? 0 };
}
