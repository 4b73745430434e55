// One import at a time (docs/specification.md section 7): the "import" lease, renewed by a heartbeat, lapses after
// LEASE_MS, so a dead import blocks the next for two minutes at most; times are the database's clock.
import { ImportError } from "./import.errors.ts";

export const LEASE_MS = 120_000;
/** How often the holder renews: four renewals would have to fail in a row before the lease lapses. */
export const HEARTBEAT_MS = 30_000;

const NAME = "import";
const NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

/** Another import holds the lease: nothing was read or written. */
export class ImportRunningError extends Error {
  override readonly name = "ImportRunningError";

  constructor(readonly since: string) {
    super(
      `another import has been running since ${since}; imports run one at a time (try again when it ends; ` +
        `one that stopped without ending lets the next start ${LEASE_MS / 60_000} minutes after its last heartbeat)`,
    );
  }
}

/** A lease held by this import, renewed every `heartbeatMs` until `release()`. */
export class ImportLease {
  private timer: ReturnType<typeof setInterval> | null = null;
  private renewal: Promise<void> = Promise.resolve();
  /** Set when a renewal found the lease taken over (it lapsed): the import must not commit. */
  private lost = false;

  private constructor(
    private readonly db: D1Database,
    readonly holder: string,
    heartbeatMs: number,
  ) {
    this.timer = setInterval(() => {
      this.renewal = this.renew().catch(() => undefined); // a failed renewal is retried at the next beat
    }, heartbeatMs);
  }

  /** Takes the lease, or throws ImportRunningError naming since when another import holds it. */
  static async take(db: D1Database, heartbeatMs = HEARTBEAT_MS): Promise<ImportLease> {
    const holder = crypto.randomUUID();
    // One statement, so two imports that start together cannot both win: D1 runs one write at a time.
    const taken = await db
      .prepare(
        `INSERT INTO leases (name, holder, started_at, renewed_at) VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ'), ${NOW_MS}) ` +
          `ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, started_at = excluded.started_at, ` +
          `renewed_at = excluded.renewed_at WHERE leases.renewed_at <= excluded.renewed_at - ?3 RETURNING holder`,
      )
      .bind(NAME, holder, LEASE_MS)
      .first<{ holder: string }>();
    if (taken?.holder === holder) return new ImportLease(db, holder, heartbeatMs);
    const running = await db
      .prepare("SELECT started_at FROM leases WHERE name = ?1")
      .bind(NAME)
      .first<{ started_at: string }>();
    // Ended between the two statements: the caller may simply try again; say what was seen.
    throw new ImportRunningError(running?.started_at ?? "a moment ago");
  }

  /** Pushes the lapse back; marks the lease lost when another import took it over meanwhile. */
  async renew(): Promise<void> {
    const res = await this.db
      .prepare(`UPDATE leases SET renewed_at = ${NOW_MS} WHERE name = ?1 AND holder = ?2`)
      .bind(NAME, this.holder)
      .run();
    if (res.meta.changes === 0) this.lost = true;
  }

  /** Throws when the lease lapsed and another import took it: this one must stop, changing nothing. */
  async check(): Promise<void> {
    await this.renewal;
    if (this.lost || !(await this.held())) {
      throw new ImportError(
        `this import's lease lapsed (no heartbeat for ${LEASE_MS / 60_000} minutes) and another import took it over`,
        "database",
      );
    }
  }

  /** A statement for the final batch that rolls it back unless this import still holds the lease (an integer
   * overflow, as in apiCustomerGuard: SQLite has no other way to fail a batch on a condition). */
  guard(): D1PreparedStatement {
    return this.db
      .prepare(
        "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM leases WHERE name = ?1 AND holder = ?2) " +
          "THEN abs(-9223372036854775807 - 1) END AS import_lease_guard",
      )
      .bind(NAME, this.holder);
  }

  async held(): Promise<boolean> {
    const row = await this.db
      .prepare("SELECT 1 AS held FROM leases WHERE name = ?1 AND holder = ?2")
      .bind(NAME, this.holder)
      .first<{ held: number }>();
    return row !== null;
  }

  /** Stops the heartbeat and ends the lease (only this holder's: a lease taken over stays). */
  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewal;
    await this.db.prepare("DELETE FROM leases WHERE name = ?1 AND holder = ?2").bind(NAME, this.holder).run();
  }
}
