// Node: streams a dataset file into records, without loading it whole. `.json` goes through
// stream-json's tokenizer, one member's array element at a time; `.jsonl` one line at a time.
import { createReadStream } from "node:fs";
import { extname } from "node:path";
import { createInterface } from "node:readline";
import Assembler from "stream-json/assembler.js";
import type { Token } from "stream-json/parser.js";
import { parseFile } from "stream-json/file/parser.js";
import { pipe } from "stream-chain/utils/pipe.js";
import { ImportError } from "./errors.ts";
import { isRecordType, RECORD_TYPES, recordTypeOfMember, type RawRecord, type RecordType } from "./records.ts";

/** The records of a `.json` or `.jsonl` (also `.ndjson`) file, with where each one is. */
export function readRecords(path: string): AsyncIterable<RawRecord> {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return readJson(path);
  if (ext === ".jsonl" || ext === ".ndjson") return readJsonLines(path);
  throw new ImportError(`the file must end in .json or .jsonl, not ${JSON.stringify(ext || path)}`, "file");
}

async function* readJsonLines(path: string): AsyncGenerator<RawRecord> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
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
      throw new ImportError(`must name one of the record types ${RECORD_TYPES.join(", ")}`, where, undefined, undefined, field);
    }
    yield { type, value, where };
  }
}

async function* readJson(path: string): AsyncGenerator<RawRecord> {
  // Depth 0: outside the top-level object; 1: in it, between members; 2: in a member's array.
  let depth = 0;
  let member = "";
  let type: RecordType | undefined;
  let index = 0;
  let assembling = false;
  const assembler = new Assembler();
  const record = (value: unknown): RawRecord => ({ type: type!, value, where: `${member}[${index++}]` });
  try {
    // pipe() flushes the parser at the end of the file: only then does a truncated file fail.
    for await (const token of pipe(parseFile({ packValues: true, streamValues: false }))<Token>(path)) {
      if (assembling) {
        assembler.consume(token);
        if (assembler.done) {
          assembling = false;
          yield record(assembler.current);
        }
        continue;
      }
      switch (depth) {
        case 0:
          if (token.name !== "startObject") throw new ImportError("must be one JSON object whose members are arrays of records", "file");
          depth = 1;
          break;
        case 1:
          if (token.name === "keyValue") {
            member = token.value;
            type = recordTypeOfMember(member);
            if (!type) throw new ImportError("unknown member; the members are states, cities, areas, postal_codes, sales_agents, delivery_agents, products, customers, orders", member);
          } else if (token.name === "startArray") {
            depth = 2;
            index = 0;
          } else if (token.name === "endObject") {
            depth = 0;
          } else {
            throw new ImportError("must be an array of records", member);
          }
          break;
        default:
          if (token.name === "endArray") {
            depth = 1;
          } else if (token.name === "startObject" || token.name === "startArray") {
            assembling = true;
            assembler.consume(token);
          } else {
            // A scalar where a record belongs: the record's check reports it.
            yield record("value" in token ? token.value : null);
          }
      }
    }
    if (depth !== 0 || assembling) throw new ImportError("not valid JSON (it ends inside a value)", "file");
  } catch (err) {
    if (err instanceof ImportError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code) throw err; // the file cannot be read: not a matter of its content
    throw new ImportError(`not valid JSON (${(err as Error).message})`, "file");
  }
}
