// Records SQLite writes as JSON text, spliced unparsed: the bytes JSON.stringify would write (docs/performance.md).
export { jsonNumber } from "./sql.queries.ts";

// What SQLite may write differently from JavaScript: 16 or more digits in a number, or an exponent; other text with
// such digits only takes the slow path, which is exact too.
const MAYBE_UNLIKE = /\d(?:\.?\d){15}|\de[-+]/;

/** The text as JSON.stringify writes it: as is, or read and written again when a number in it may differ. */
export function asJavaScriptWrites(text: string): string {
  return MAYBE_UNLIKE.test(text) ? JSON.stringify(JSON.parse(text)) : text;
}
