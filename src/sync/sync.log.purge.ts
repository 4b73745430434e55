// The daily tombstone purge (section 8, "Retention"): bounded chunks, each with its books' purge marks.
import { purgeQueries } from "./sync.purge.queries.ts";

export const DEFAULT_RETENTION_DAYS = 30;
/** Tombstones deleted by one batch at most. */
export const PURGE_CHUNK = 1000;
/** Batches of one run at most: what is left goes the next day (tombstones are kept at least that long). */
export const PURGE_ROUNDS = 50;

const DAY_SECONDS = 86_400;

/** SYNC_RETENTION_DAYS: a whole number of days, at least 1; anything else is the default. */
export function retentionDays(value: string | undefined): number {
  const days = /^\d{1,5}$/.test(value?.trim() ?? "") ? Number(value) : 0;
  return days >= 1 ? days : DEFAULT_RETENTION_DAYS;
}

export interface PurgeResult {
  tombstones_purged: number;
  /** True when the run stopped at PURGE_ROUNDS: old tombstones may be left for the next run. */
  tombstones_left: boolean;
}

export async function purgeTombstones(
  db: D1Database,
  now: Date,
  days: number,
  chunk = PURGE_CHUNK,
): Promise<PurgeResult> {
  const cutoff = Math.floor(now.getTime() / 1000) - days * DAY_SECONDS;
  const [mark, purge] = [purgeQueries.mark(db, cutoff, chunk), purgeQueries.purge(db, cutoff, chunk)];
  let purged = 0;
  for (let round = 0; round < PURGE_ROUNDS; round++) {
    const [, deleted] = await db.batch([mark, purge]);
    const n = deleted?.meta.changes ?? 0;
    purged += n;
    if (n < chunk) return { tombstones_purged: purged, tombstones_left: false };
  }
  return { tombstones_purged: purged, tombstones_left: true };
}
