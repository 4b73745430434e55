// One import at a time (section 7): a lease on the database's clock, renewed by a heartbeat, lapsing after LEASE_MS.
import { ImportError } from "./import.errors.ts";
import { leaseQueries } from "./import.queries.ts";

export const LEASE_MS = 120_000;
/** How often the holder renews: four renewals would have to fail in a row before the lease lapses. */
export const HEARTBEAT_MS = 30_000;

const NAME = "import";

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
    const taken = await leaseQueries.take(db, NAME, holder, LEASE_MS).first<{ holder: string }>();
    if (taken?.holder === holder) return new ImportLease(db, holder, heartbeatMs);
    const running = await leaseQueries.startedAt(db, NAME).first<{ started_at: string }>();
    // Ended between the two statements: the caller may simply try again; say what was seen.
    throw new ImportRunningError(running?.started_at ?? "a moment ago");
  }

  /** Pushes the lapse back; marks the lease lost when another import took it over meanwhile. */
  async renew(): Promise<void> {
    const res = await leaseQueries.renew(this.db, NAME, this.holder).run();
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

  /** A statement for the final batch that rolls it back unless this import still holds the lease. */
  guard(): D1PreparedStatement {
    return leaseQueries.guard(this.db, NAME, this.holder);
  }

  async held(): Promise<boolean> {
    const row = await leaseQueries.held(this.db, NAME, this.holder).first<{ held: number }>();
    return row !== null;
  }

  /** Stops the heartbeat and ends the lease (only this holder's: a lease taken over stays). */
  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewal;
    await leaseQueries.release(this.db, NAME, this.holder).run();
  }
}
