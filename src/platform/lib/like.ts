// LIKE patterns within production D1's 50 bytes: a longer text by its longest fitting prefix (`complete` false).

/** D1's limit on a LIKE pattern, in bytes (SQLite's SQLITE_MAX_LIKE_PATTERN_LENGTH there). */
export const MAX_LIKE_PATTERN_BYTES = 50;

export interface ContainsPattern {
  /** `%text%` with `\`, `%` and `_` escaped by `\` (use with ESCAPE '\'): at most 50 bytes. */
  pattern: string;
  /** False when only a prefix of the text fits: the pattern then matches more than the text does. */
  complete: boolean;
}

const encoder = new TextEncoder();

/** The pattern matching values that contain `text` (ASCII case ignored, as LIKE does). */
export function containsPattern(text: string): ContainsPattern {
  let body = "";
  let bytes = 2; // the two %
  let complete = true;
  // By code point, so that a character is never cut in half.
  for (const ch of text) {
    const escaped = ch === "\\" || ch === "%" || ch === "_" ? `\\${ch}` : ch;
    const size = encoder.encode(escaped).length;
    if (bytes + size > MAX_LIKE_PATTERN_BYTES) {
      complete = false;
      break;
    }
    body += escaped;
    bytes += size;
  }
  return { pattern: `%${body}%`, complete };
}
