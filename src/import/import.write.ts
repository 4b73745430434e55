// Rows go to staging tables while the file streams; one atomic db.batch() moves them into the live tables.
import { stagingQueries } from "./import.queries.ts";
import { SPEC_OF, SPECS, type StagedRows, type StagedTable } from "./import.staged.ts";

// One JSON array of rows per statement (json_each): one bound parameter of D1's 100, under its 2 MB value limit even
// at three bytes a character.
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

  /** Sends the waiting statements as one batch, awaiting only the one before, so parsing and writing overlap. */
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

  /** One transaction: guards, `open`, the moves, `after`, `close`; returns the rows the moves and `after` wrote. */
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
