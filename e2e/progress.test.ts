// The progress lines of db:import and demo:generate without a terminal (scripts/lib/progress.ts):
// a plain line at least every 10% of the work or every 10 s, and a last one when the work is done.
import { describe, expect, it } from "vitest";
import { Progress } from "../scripts/lib/progress.ts";
import { pipe } from "./helpers/pipe.ts";

describe("Progress without a terminal", () => {
  it("writes a line at every 10% of a known total, with records by type, share, estimate, rate and elapsed", () => {
    const { lines, stream } = pipe();
    let now = 0;
    const progress = new Progress({ label: "import", total: 10_000, stream, now: () => now });
    for (let i = 1; i <= 10_000; i++) {
      now = i; // 1 ms a record
      progress.record(i <= 1000 ? "customer" : "order", i);
    }
    progress.stop();
    // 10% to 90% while it runs, then the last line once (not also when the whole file has been read).
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe("import: 1,000 customer, 10%, about 9 s left, 1,000 records/s, 1.0 s");
    expect(lines[4]).toBe("import: 1,000 customer, 4,000 order, 50%, about 5 s left, 1,000 records/s, 5.0 s");
    expect(lines[8]).toBe("import: 1,000 customer, 8,000 order, 90%, about 1 s left, 1,000 records/s, 9.0 s");
    expect(lines[9]).toBe("import: 1,000 customer, 9,000 order, 100%, 1,000 records/s, 10.0 s");
  });

  it("prints the last line once when the file is read before its last records are parsed", () => {
    const { lines, stream } = pipe();
    let now = 0;
    const progress = new Progress({ label: "import", total: 1_000, stream, now: () => now });
    // A small file: the reader's first chunk is the whole file, so every record sees 100% read.
    for (let i = 1; i <= 1_500; i++) {
      now = i;
      progress.record("customer", 1_000);
    }
    progress.stop();
    expect(lines).toEqual(["import: 1,500 customer, 100%, 1,000 records/s, 1.5 s"]);
  });

  it("writes a line every 10 s when the total is unknown or moves slowly", () => {
    const { lines, stream } = pipe();
    let now = 0;
    const progress = new Progress({ label: "generate", stream, now: () => now });
    for (let i = 1; i <= 5000; i++) {
      now = i * 10; // 10 ms a record: 50 s in all
      progress.record("order");
    }
    expect(lines).toEqual([
      "generate: 1,000 order, 100 records/s, 10.0 s",
      "generate: 2,000 order, 100 records/s, 20.0 s",
      "generate: 3,000 order, 100 records/s, 30.0 s",
      "generate: 4,000 order, 100 records/s, 40.0 s",
      "generate: 5,000 order, 100 records/s, 50.0 s",
    ]);
  });

  it("writes no last line for work that failed", () => {
    const { lines, stream } = pipe();
    const progress = new Progress({ label: "import", total: 100, stream, now: () => 0 });
    progress.record("customer", 1);
    progress.stop(false);
    expect(lines).toEqual([]);
  });
});
