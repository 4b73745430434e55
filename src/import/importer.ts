// The importer: records validated while they stream, staged, moved into the live tables at once or not at all.
import { causeMessages } from "../platform/errors.ts";
import { apiCustomerGuard, findApiCustomerClash, guardTripped } from "./import.api-customers.ts";
import { findConflict } from "./import.checks.ts";
import { IdSet } from "./import.ids.ts";
import { ImportLease } from "./import.lease.ts";
import { MEMBER_OF, RECORD_TYPES, type Dataset, type RecordType } from "./import.format.ts";
import { datasetRecords, parseRecord, type RawRecord } from "./import.records.ts";
import { SPECS, type RecordSink, type StagedRows, type StagedTable } from "./import.staged.ts";
import { planSyncLog, SHOWN_TABLE, syncLogParts } from "./import.sync-log.queries.ts";
import { Staging } from "./import.write.ts";
import { stagingQueries } from "./import.queries.ts";

export { ImportError } from "./import.errors.ts";
export { ImportRunningError } from "./import.lease.ts";
export type * from "./import.format.ts";
export type * from "./import.records.ts";
export type { StagedTable } from "./import.staged.ts";

export interface ImportSummary {
  /** Rows written per table (customers, orders, order_items, invoices, ...). */
  counts: Record<StagedTable, number>;
  /** D1's rows_written to the live tables and the sync log, staging excluded: 0 for a file that changes nothing. */
  rowsWritten: number;
  seconds: number;
}

export interface ImportOptions {
  /** Records marked by one statement of the sync log at most (docs/specification.md section 8). */
  markChunk?: number;
  /** Milliseconds between renewals of the import's lease (tests shorten it). */
  heartbeatMs?: number;
}

export async function importDataset(db: D1Database, dataset: Dataset, options?: ImportOptions): Promise<ImportSummary> {
  return importRecords(db, datasetRecords(dataset), options);
}

/** All or nothing: ImportError on a bad record, ImportRunningError while another import holds the lease. */
export async function importRecords(
  db: D1Database,
  records: AsyncIterable<RawRecord> | Iterable<RawRecord>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  // First: the staging tables are shared, so nothing else may happen before the lease is held.
  const lease = await ImportLease.take(db, options.heartbeatMs);
  try {
    return await importLeased(db, records, options, lease, started);
  } finally {
    await lease.release();
  }
}

async function importLeased(
  db: D1Database,
  records: AsyncIterable<RawRecord> | Iterable<RawRecord>,
  options: ImportOptions,
  lease: ImportLease,
  started: number,
): Promise<ImportSummary> {
  const known = await existingIds(db);
  const staging = new Staging(db, [SHOWN_TABLE]);
  await staging.create();
  const session = new Session(known, staging);
  let rowsWritten: number;
  try {
    for await (const record of records) {
      parseRecord(record, session);
      if (staging.full) await staging.send();
    }
    await staging.flush();
    const conflict = (await findApiCustomerClash(db)) ?? (await findConflict(db));
    if (conflict) throw conflict;
    const log = syncLogParts(db, await planSyncLog(db, options.markChunk));
    await lease.check();
    try {
      rowsWritten = await staging.commit({ guards: [lease.guard(), apiCustomerGuard(db)], ...log });
    } catch (err) {
      if (guardTripped(causeMessages(err))) {
        // A guard tripped (lease lapsed, API customer meanwhile): the same errors as before the batch.
        await lease.check();
        throw (await findApiCustomerClash(db)) ?? err;
      }
      throw err;
    }
  } catch (err) {
    // Only while the lease is ours: a lapsed lease's staging tables belong to the import that took it.
    if (await lease.held().catch(() => false)) await staging.drop().catch(() => undefined);
    throw err;
  }
  return { counts: session.counts, rowsWritten, seconds: (Date.now() - started) / 1000 };
}

// Orders are never referenced, so only the other types' ids are loaded.
const REFERENCED: RecordType[] = RECORD_TYPES.filter((t) => t !== "order");

/** The ids already in the database of every referenced type: references may point at them. */
async function existingIds(db: D1Database): Promise<Map<RecordType, IdSet>> {
  const results = await db.batch<{ id: number }>(REFERENCED.map((t) => stagingQueries.ids(db, MEMBER_OF[t])));
  return new Map(
    REFERENCED.map((type, i) => {
      const ids = new IdSet();
      for (const { id } of results[i]!.results) ids.add(id);
      return [type, ids];
    }),
  );
}

class Session implements RecordSink {
  readonly counts = Object.fromEntries(SPECS.map((s) => [s.name, 0])) as Record<StagedTable, number>;
  // Ids given in the file, per kind: a second record with one of them is an error.
  private readonly seen = new Map<RecordType | "invoice", IdSet>();

  constructor(
    /** Ids in the database or earlier in the file: what a reference may point at. */
    private readonly known: Map<RecordType, IdSet>,
    private readonly staging: Staging,
  ) {}

  claim(kind: RecordType | "invoice", id: number): boolean {
    let ids = this.seen.get(kind);
    if (!ids) this.seen.set(kind, (ids = new IdSet()));
    if (ids.has(id)) return false;
    ids.add(id);
    if (kind !== "invoice") this.known.get(kind)?.add(id);
    return true;
  }

  exists(type: RecordType, id: number): boolean {
    return this.known.get(type)?.has(id) ?? false;
  }

  row<K extends StagedTable>(table: K, row: StagedRows[K]): void {
    this.staging.add(table, row);
    this.counts[table]++;
  }
}
