// Reads the Server-Timing header of an answer: the D1 round trips, the rows D1 read and the KV reads
// that the request made (docs/specification.md section 6), each entry checked against the exact format that
// clients parse.
import type { CallResult } from "./http.ts";

export interface Work {
  d1: number;
  kv: number;
}

const D1_ENTRY = /^d1;dur=\d+\.\d;desc="(\d+) round trips"$/;
const D1ROWS_ENTRY = /^d1rows;desc="(\d+) rows read"$/;
const KV_ENTRY = /^kv;dur=\d+\.\d;desc="(\d+) reads"$/;
const TOTAL_ENTRY = /^total;dur=\d+\.\d;desc="total"$/;

/** The header's entries in order; throws when it is missing or any entry breaks the format. */
export function timingEntries(res: Pick<CallResult, "headers">): string[] {
  const header = res.headers.get("Server-Timing");
  if (header === null) throw new Error("no Server-Timing header");
  // No description of ours holds a comma, so the entries split on it.
  const entries = header.split(",");
  if (
    entries.length !== 4 ||
    !D1_ENTRY.test(entries[0]!) ||
    !D1ROWS_ENTRY.test(entries[1]!) ||
    !KV_ENTRY.test(entries[2]!) ||
    !TOTAL_ENTRY.test(entries[3]!)
  ) {
    throw new Error(`Server-Timing is not d1, d1rows, kv and total in the documented format: ${header}`);
  }
  return entries;
}

/** The D1 round trips and KV reads that the answer reports. */
export function workOf(res: Pick<CallResult, "headers">): Work {
  const [d1, , kv] = timingEntries(res);
  return { d1: Number(D1_ENTRY.exec(d1!)![1]), kv: Number(KV_ENTRY.exec(kv!)![1]) };
}

/** The rows that D1 says the request's statements read (the d1rows entry). */
export function rowsReadOf(res: Pick<CallResult, "headers">): number {
  return Number(D1ROWS_ENTRY.exec(timingEntries(res)[1]!)![1]);
}
