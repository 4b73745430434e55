// Writes an import into the D1 database: rows go to staging tables while the file streams, and one atomic db.batch()
// moves them into the live tables. Platform-neutral (any D1Database binding).
import { stagingQueries } from "./import.queries.ts";
import { SPEC_OF, SPECS, type StagedRows, type StagedTable } from "./import.staged.ts";

// Rows travel as one JSON array per statement (read back with json_each): one bound parameter, whatever the row count
// (D1 allows 100 per statement), and far fewer statements than VALUES lists. Kept under D1's 2 MB limit for a value
// even if every character took three bytes in UTF-8.
const STATEMENT_CHARS = 512 * 1024;
const BATCH_CHARS = 4 * 1024 * 1024;

export interface CommitParts {
  guards?: D1PreparedStatement[];
  open?: D1PreparedStatement[];
  after?: D1PreparedStatement[];
  close?: D1PreparedStatement[];
}

interface Buffer {
  parts: string[];
  chars: number;
}

export class Staging {
  private readonly buffers = new Map<StagedTable, Buffer>();
  private pending: D1PreparedStatement[] = [];
  private pendingChars = 0;
  private inflight: Promise<unknown> | null = null;

  constructor(
    private readonly db: D1Database,
    /** Tables that other parts of the import make (by name), dropped with the staging tables. */
    private readonly alsoDropped: string[] = [],
  ) {}

  /** Fresh, empty staging tables (a crashed earlier import may have left some behind). */
  async create(): Promise<void> {
    await this.db.batch(
      SPECS.flatMap((s) => [stagingQueries.drop(this.db, s.staging), stagingQueries.create(this.db, s)]),
    );
  }

  add<K extends StagedTable>(table: K, row: StagedRows[K]): void {
    const spec = SPEC_OF[table];
    const record = row as unknown as Record<string, unknown>;
    const json = JSON.stringify(spec.keys.map((k) => record[k] ?? null));
    let buffer = this.buffers.get(table);
    if (!buffer) this.buffers.set(table, (buffer = { parts: [], chars: 0 }));
    buffer.parts.push(json);
    buffer.chars += json.length + 1;
    if (buffer.chars >= STATEMENT_CHARS) this.seal(table, buffer);
  }

  /** True when enough statements wait that the caller should `await send()`. */
  get full(): boolean {
    return this.pendingChars >= BATCH_CHARS;
  }

  /** Sends the waiting statements as one batch. It does not wait for that batch, only for the one before it, so that
   * parsing the file and writing to D1 overlap. */
  async send(): Promise<void> {
    const statements = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    await this.settle();
    if (statements.length === 0) return;
    const batch = this.db.batch(statements);
    batch.catch(() => undefined); // rethrown by settle()
    this.inflight = batch;
  }

  async flush(): Promise<void> {
    for (const [table, buffer] of this.buffers) if (buffer.parts.length) this.seal(table, buffer);
    await this.send();
    await this.settle();
  }

  /** One batch, which D1 runs as one transaction: all of the import or none of it. In order: the guards, `open`, the
   * moves into the live tables, `after`, `close`. Returns the rows that the moves and `after` wrote (D1's
   * rows_written, the triggers' writes included). */
  async commit(parts: CommitParts = {}): Promise<number> {
    await this.flush();
    const { guards = [], open = [], after = [], close = [] } = parts;
    const counted = [...stagingQueries.moves(this.db, SPECS), ...after];
    const results = await this.db.batch([...guards, ...open, ...counted, ...close, ...this.dropStatements()]);
    const first = guards.length + open.length;
    return results.slice(first, first + counted.length).reduce((sum, r) => sum + (r.meta.rows_written ?? 0), 0);
  }

  async drop(): Promise<void> {
    await this.settle().catch(() => undefined);
    await this.db.batch(this.dropStatements());
  }

  private dropStatements(): D1PreparedStatement[] {
    return [...SPECS.map((s) => s.staging), ...this.alsoDropped].map((table) => stagingQueries.drop(this.db, table));
  }

  private seal(table: StagedTable, buffer: Buffer): void {
    this.pending.push(stagingQueries.insert(this.db, SPEC_OF[table], `[${buffer.parts.join(",")}]`));
    this.pendingChars += buffer.chars;
    buffer.parts = [];
    buffer.chars = 0;
  }

  private async settle(): Promise<void> {
    const inflight = this.inflight;
    this.inflight = null;
    if (inflight) await inflight;
  }
}
