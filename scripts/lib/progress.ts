// Progress of long command-line work on standard error (standard output keeps the command's
// summary as its last line): on a terminal a live line drawn by cli-progress; without one (a pipe,
// a log file, CI) a plain line at least every 10% of the work or every 10 s, whichever comes first.
import cliProgress from "cli-progress";

export interface ProgressOptions {
  /** What the work is, at the start of every line ("import", "generate"). */
  label: string;
  /** How much work there is in `done` units (bytes of a file, records to write), when known. */
  total?: number;
  /** Where lines go; process.stderr unless a test gives another. */
  stream?: NodeJS.WriteStream;
  /** The clock, in ms; Date.now unless a test gives another. */
  now?: () => number;
}

const PLAIN_EVERY_MS = 10_000;
const PLAIN_EVERY_FRACTION = 0.1;

export class Progress {
  private readonly counts = new Map<string, number>();
  private records = 0;
  private done = 0;
  private readonly started: number;
  private readonly stream: NodeJS.WriteStream;
  private readonly now: () => number;
  private readonly bar: cliProgress.SingleBar | null;
  private lastLineAt: number;
  private nextFraction = PLAIN_EVERY_FRACTION;

  constructor(private readonly options: ProgressOptions) {
    this.stream = options.stream ?? process.stderr;
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.lastLineAt = this.started;
    this.bar = this.stream.isTTY
      ? new cliProgress.SingleBar(
          {
            stream: this.stream,
            format: options.total
              ? `${options.label} {bar} {percentage}% | {records} | {rate} records/s | {duration_formatted}, about {eta_formatted} left`
              : `${options.label} {records} | {rate} records/s | {duration_formatted}`,
            hideCursor: true,
            fps: 5,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
    this.bar?.start(options.total ?? 0, 0, this.payload());
  }

  /** One more record of this type; `done` is the work done so far (e.g. bytes read), when known. */
  record(type: string, done?: number): void {
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
    this.records++;
    if (done !== undefined) this.done = done;
    // Every record would be too often to look at the clock for a million of them.
    if (this.records % 500 === 0) this.update();
  }

  /**
   * The final line (plain) or the bar's last state; the caller then prints its summary. When the
   * work failed, the bar is only stopped (the caller prints the error instead of a last line).
   */
  stop(finished = true): void {
    if (this.bar) {
      if (finished) this.bar.update(this.options.total ? this.options.total : 0, this.payload());
      this.bar.stop();
    } else if (finished) {
      this.stream.write(`${this.line()}\n`);
    }
  }

  private update(): void {
    if (this.bar) {
      this.bar.update(this.options.total ? Math.min(this.done, this.options.total) : 0, this.payload());
      return;
    }
    const now = this.now();
    const fraction = this.options.total ? this.done / this.options.total : 0;
    // The whole file read: what is left is parsing its last part, and stop() prints the last line.
    if (this.options.total && fraction >= 1) return;
    if (now - this.lastLineAt < PLAIN_EVERY_MS && !(this.options.total && fraction >= this.nextFraction)) return;
    this.lastLineAt = now;
    while (this.options.total && fraction >= this.nextFraction) this.nextFraction += PLAIN_EVERY_FRACTION;
    this.stream.write(`${this.line()}\n`);
  }

  private seconds(): number {
    return Math.max((this.now() - this.started) / 1000, 0.001);
  }

  private byType(): string {
    return [...this.counts].map(([type, n]) => `${n.toLocaleString("en-US")} ${type}`).join(", ") || "0 records";
  }

  private payload() {
    return { records: this.byType(), rate: Math.round(this.records / this.seconds()).toLocaleString("en-US") };
  }

  /** A plain line: records by type, share done and estimate (when the total is known), rate, elapsed. */
  private line(): string {
    const seconds = this.seconds();
    const total = this.options.total;
    const parts = [`${this.options.label}: ${this.byType()}`];
    if (total) {
      const fraction = Math.min(this.done / total, 1);
      parts.push(`${Math.floor(fraction * 100)}%`);
      if (fraction > 0 && fraction < 1) parts.push(`about ${Math.round((seconds * (1 - fraction)) / fraction)} s left`);
    }
    parts.push(`${Math.round(this.records / seconds).toLocaleString("en-US")} records/s`, `${seconds.toFixed(1)} s`);
    return parts.join(", ");
  }
}
