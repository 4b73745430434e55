// Records that SQLite writes as JSON text, spliced into the answer unparsed (docs/performance.md, "Pages as JSON
// text"): the same bytes as JSON.stringify of the records that the serializers shape.
export { jsonNumber } from "./sql.queries.ts";

// What SQLite may write differently from JavaScript: 16 or more digits in a number, or an exponent; other text with
// such digits only takes the slow path, which is exact too.
const MAYBE_UNLIKE = /\d(?:\.?\d){15}|\de[-+]/;

/** The text as JSON.stringify writes it: the text itself, unless a number in it may be written otherwise, then read
 * and written again (SQLite's numbers always read back as the same double). */
export function asJavaScriptWrites(text: string): string {
  return MAYBE_UNLIKE.test(text) ? JSON.stringify(JSON.parse(text)) : text;
}
