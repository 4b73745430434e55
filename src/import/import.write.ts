// Writes an import into the D1 database: rows go to staging tables while the file streams, and one
// atomic db.batch() moves them into the live tables. Platform-neutral (any D1Database binding).
import { SPEC_OF, SPECS, type StagedRows, type StagedTable } from "./import.staged.ts";

// Rows travel as one JSON array per statement (read back with json_each): one bound parameter,
// whatever the row count (D1 allows 100 per statement), and far fewer statements than VALUES lists.
// Kept under D1's 2 MB limit for a value even if every character took three bytes in UTF-8.
const STATEMENT_CHARS = 512 * 1024;
const BATCH_CHARS = 4 * 1024 * 1024;

interface Buffer {
  parts: string[];
  chars: number;
}

export class Staging {
  private readonly buffers = new Map<StagedTable, Buffer>();
  private pending: D1PreparedStatement[] = [];
  private pendingChars = 0;
  private inflight: Promise<unknown> | null = null;

  constructor(private readonly db: D1Database) {}

  /** Fresh, empty staging tables (a crashed earlier import may have left some behind). */
  async create(): Promise<void> {
    await this.db.batch(
      SPECS.flatMap((s) => [
        this.db.prepare(`DROP TABLE IF EXISTS ${s.staging}`),
        // Same columns and affinities as the live table, without its constraints (checked later).
        this.db.prepare(
          `CREATE TABLE ${s.staging} AS SELECT *${s.extra.map((c) => `, NULL AS ${c}`).join("")} FROM ${s.name} WHERE 0`,
        ),
      ]),
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

  /**
   * Sends the waiting statements as one batch. It does not wait for that batch, only for the one
   * before it, so that parsing the file and writing to D1 overlap.
   */
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

  /** One batch, which D1 runs as one transaction: all of the import or none of it. Guards run first. */
  async commit(guards: D1PreparedStatement[] = []): Promise<void> {
    await this.flush();
    await this.db.batch([...guards, ...moveStatements().map((sql) => this.db.prepare(sql)), ...this.dropStatements()]);
  }

  async drop(): Promise<void> {
    await this.settle().catch(() => undefined);
    await this.db.batch(this.dropStatements());
  }

  private dropStatements(): D1PreparedStatement[] {
    return SPECS.map((s) => this.db.prepare(`DROP TABLE IF EXISTS ${s.staging}`));
  }

  private seal(table: StagedTable, buffer: Buffer): void {
    const spec = SPEC_OF[table];
    const columns = [...spec.columns, ...spec.extra];
    const values = columns.map((_, i) => `value ->> ${i}`).join(", ");
    const sql = `INSERT INTO ${spec.staging} (${columns.join(", ")}) SELECT ${values} FROM json_each(?1)`;
    this.pending.push(this.db.prepare(sql).bind(`[${buffer.parts.join(",")}]`));
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

// A value no imported row holds, unique per row: parks a unique column while rows swap values.
const PARKED = (table: string) => `char(1) || 'import:' || ${table}.id`;

function moveStatements(): string[] {
  return SPECS.flatMap((s) => {
    const columns = s.columns.join(", ");
    if (s.childOf) {
      return [
        `DELETE FROM ${s.name} WHERE ${s.childOf.column} IN (SELECT id FROM ${s.childOf.parent})`,
        `INSERT INTO ${s.name} (${columns}) SELECT ${columns} FROM ${s.staging}`,
      ];
    }
    const updates = s.columns.filter((c) => c !== "id").map((c) => `${c} = excluded.${c}`);
    // Unique indexes are checked row by row: rows whose unique value changes get a parked value
    // first, so that two records swapping values (or one taking another's old value) both succeed.
    const park = s.unique
      ? [
          `UPDATE ${s.name} SET ${s.unique} = ${PARKED(s.name)} FROM ${s.staging} AS s ` +
            `WHERE s.id = ${s.name}.id AND ${s.name}.${s.unique} IS NOT s.${s.unique}`,
        ]
      : [];
    const prune = s.ownedBy
      ? [
          `DELETE FROM ${s.name} WHERE ${s.ownedBy.column} IN (SELECT id FROM ${s.ownedBy.parent}) ` +
            `AND id NOT IN (SELECT id FROM ${s.staging})`,
        ]
      : [];
    return [
      ...prune,
      ...park,
      // "WHERE true" keeps SQLite from reading ON CONFLICT as a join constraint.
      `INSERT INTO ${s.name} (${columns}) SELECT ${columns} FROM ${s.staging} WHERE true ` +
        `ON CONFLICT (id) DO UPDATE SET ${updates.join(", ")}`,
    ];
  });
}
