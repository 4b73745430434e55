// Node: streams a dataset file into records, without loading it whole. `.json` goes through
// stream-json's tokenizer, one member's array element at a time; `.jsonl` one line at a time.
import { createReadStream } from "node:fs";
import { extname } from "node:path";
import { createInterface } from "node:readline";
import { getManyValues, isMany, none } from "stream-chain/defs.js";
import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
import { ImportError } from "../../src/import/import.errors.ts";
import { MEMBER_OF, RECORD_TYPES, type RecordType } from "../../src/import/import.format.ts";
import { isRecordType, recordTypeOfMember, type RawRecord } from "../../src/import/import.records.ts";

/** Told the bytes of the file read so far, for progress (records come out of what was read). */
export type OnBytesRead = (bytes: number) => void;

/** The records of a `.json` or `.jsonl` (also `.ndjson`) file, with where each one is. */
export function readRecords(path: string, onBytesRead: OnBytesRead = () => undefined): AsyncIterable<RawRecord> {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return readJson(path, onBytesRead);
  if (ext === ".jsonl" || ext === ".ndjson") return readJsonLines(path, onBytesRead);
  throw new ImportError(`the file must end in .json or .jsonl, not ${JSON.stringify(ext || path)}`, "file");
}

async function* readJsonLines(path: string, onBytesRead: OnBytesRead): AsyncGenerator<RawRecord> {
  const input = createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    onBytesRead(input.bytesRead);
    const where = `line ${++n}`;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new ImportError(`not valid JSON (${(err as Error).message})`, where);
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (!isRecordType(type)) {
      const field = value !== null && typeof value === "object" && !Array.isArray(value) ? "type" : undefined;
      throw new ImportError(
        `must name one of the record types ${RECORD_TYPES.join(", ")}`,
        where,
        undefined,
        undefined,
        field,
      );
    }
    yield { type, value, where };
  }
}

async function* readJson(path: string, onBytesRead: OnBytesRead): AsyncGenerator<RawRecord> {
  // The tokenizer is driven by hand, chunk by chunk: an async step per token would cost more than
  // the parsing itself.
  const parse = jsonParser({ packValues: true, streamValues: false });
  const members = new MemberArrays();
  let first = true;
  try {
    const input = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
    for await (let chunk of input as AsyncIterable<string>) {
      onBytesRead(input.bytesRead);
      if (first && chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
      yield* members.take(parse(chunk));
    }
    // A flushable takes `none` at the end of the input (its type omits that): where a truncated file fails.
    yield* members.take(parse(none as unknown as string));
    members.end();
  } catch (err) {
    if (err instanceof ImportError) throw err;
    if ((err as NodeJS.ErrnoException).code) throw err; // the file cannot be read: not about its content
    throw new ImportError(`not valid JSON (${(err as Error).message})`, "file");
  }
}

/** Turns the tokens of `{"member": [record, ...], ...}` into records, one member's element at a time. */
class MemberArrays {
  // 0: outside the top-level object; 1: in it, between members; 2: in a member's array.
  private depth = 0;
  private member = "";
  private type: RecordType | undefined;
  private index = 0;
  private assembling = false;
  private readonly assembler = new Assembler();

  *take(output: ReturnType<ReturnType<typeof jsonParser>>): Generator<RawRecord> {
    if (output === none) return;
    const tokens = (isMany(output) ? getManyValues(output) : [output]) as Token[];
    for (const token of tokens) {
      const value = this.token(token);
      if (value !== NOTHING) yield { type: this.type!, value, where: `${this.member}[${this.index++}]` };
    }
  }

  end(): void {
    if (this.depth !== 0 || this.assembling) throw new ImportError("not valid JSON (it ends inside a value)", "file");
  }

  /** The record this token completes, if any. */
  private token(token: Token): unknown {
    if (this.assembling) {
      this.assembler.consume(token);
      if (!this.assembler.done) return NOTHING;
      this.assembling = false;
      return this.assembler.current;
    }
    switch (this.depth) {
      case 0:
        if (token.name !== "startObject") {
          throw new ImportError("must be one JSON object whose members are arrays of records", "file");
        }
        this.depth = 1;
        return NOTHING;
      case 1:
        if (token.name === "keyValue") {
          this.member = token.value;
          this.type = recordTypeOfMember(this.member);
          if (!this.type) throw new ImportError(`unknown member; the members are ${MEMBERS}`, this.member);
        } else if (token.name === "startArray") {
          this.depth = 2;
          this.index = 0;
        } else if (token.name === "endObject") {
          this.depth = 0;
        } else {
          throw new ImportError("must be an array of records", this.member);
        }
        return NOTHING;
      default:
        if (token.name === "endArray") {
          this.depth = 1;
          return NOTHING;
        }
        if (token.name === "startObject" || token.name === "startArray") {
          this.assembling = true;
          this.assembler.consume(token);
          return NOTHING;
        }
        // A scalar where a record belongs: the record's check reports it.
        return "value" in token ? token.value : null;
    }
  }
}

const NOTHING = Symbol("nothing");
const MEMBERS = RECORD_TYPES.map((t) => MEMBER_OF[t]).join(", ");
