// Key data retention (docs/specification.md section 2, "Key usage and audit"), run daily by
// src/scheduled.ts: one D1 batch, both deletes on indexes.
import { AUDIT_RETENTION_DAYS } from "./keys.audit.ts";
import type { KeyDatabase } from "./keys.record.ts";
import { HOUR_MS, hourOf, USAGE_RETENTION_DAYS } from "./keys.usage-read.ts";

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
