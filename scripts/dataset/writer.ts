// Streams a dataset to a file in the docs/commands.md format, one record at a time, so that a million
// orders never sit in memory: `.json` (one object of arrays, a record a line) or `.jsonl` (a record
// a line with its "type", the types in the contract's order).
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { MEMBER_OF, RECORD_TYPES, type Dataset, type RecordType } from "../../src/import/import.format.ts";

export type DatasetFormat = "json" | "jsonl";

/** The record of each type, as the importer reads it. */
type RecordOf<T extends RecordType> = NonNullable<Dataset[(typeof MEMBER_OF)[T]]>[number];

const FLUSH_AT = 1 << 16;

export function formatOf(path: string): DatasetFormat | null {
  if (path.endsWith(".jsonl")) return "jsonl";
  if (path.endsWith(".json")) return "json";
  return null;
}

export class DatasetWriter {
  private readonly stream: WriteStream;
  private buffer = "";
  private next = 0;
  private written = 0;

  /** @param onRecord told of each record as it is written (for progress) */
  constructor(
    path: string,
    private readonly format: DatasetFormat,
    private readonly onRecord: (type: RecordType) => void = () => undefined,
  ) {
    this.stream = createWriteStream(path, { encoding: "utf8" });
  }

  /** Writes one section; sections must come in RECORD_TYPES order, each exactly once. */
  async section<T extends RecordType>(type: T, records: Iterable<RecordOf<T>>): Promise<number> {
    const expected = RECORD_TYPES[this.next];
    if (expected !== type) throw new Error(`section ${type} out of order (expected ${expected ?? "none"})`);
    this.next++;
    if (this.format === "json") this.buffer += `${this.next === 1 ? "{\n" : ",\n"}"${MEMBER_OF[type]}": [`;
    let count = 0;
    for (const record of records) {
      if (this.format === "json") this.buffer += `${count === 0 ? "\n" : ",\n"}${JSON.stringify(record)}`;
      else this.buffer += `${JSON.stringify({ type, ...record })}\n`;
      count++;
      this.onRecord(type);
      if (this.buffer.length >= FLUSH_AT) await this.flush();
    }
    if (this.format === "json") this.buffer += count === 0 ? "]" : "\n]";
    this.written += count;
    return count;
  }

  async close(): Promise<number> {
    if (this.next !== RECORD_TYPES.length) throw new Error("dataset closed before all sections were written");
    if (this.format === "json") this.buffer += "\n}\n";
    await this.flush();
    this.stream.end();
    await once(this.stream, "finish");
    return this.written;
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = "";
    if (!this.stream.write(chunk)) await once(this.stream, "drain");
  }
}
