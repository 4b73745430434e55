import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsPattern, MAX_LIKE_PATTERN_BYTES } from "./like.ts";

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe("containsPattern", () => {
  it("escapes LIKE's wildcards and its escape character", () => {
    expect(containsPattern("50%_a\\b")).toEqual({ pattern: "%50\\%\\_a\\\\b%", complete: true });
    expect(containsPattern("")).toEqual({ pattern: "%%", complete: true });
  });

  it("keeps a text whose pattern is exactly 50 bytes whole, and cuts one byte more", () => {
    expect(containsPattern("a".repeat(48))).toEqual({ pattern: `%${"a".repeat(48)}%`, complete: true });
    expect(containsPattern("a".repeat(49))).toEqual({ pattern: `%${"a".repeat(48)}%`, complete: false });
    // 100 characters, as the search allows: 48 of them fit.
    expect(containsPattern("x".repeat(100)).pattern).toHaveLength(50);
  });

  it("counts escapes and UTF-8 bytes, and never cuts a character in half", () => {
    // Each % becomes two bytes: 24 of them fill the 48 bytes.
    expect(containsPattern("%".repeat(30))).toEqual({ pattern: `%${"\\%".repeat(24)}%`, complete: false });
    // Devanagari letters are 3 bytes each: 16 fit (48 bytes).
    expect(containsPattern("क".repeat(20))).toEqual({ pattern: `%${"क".repeat(16)}%`, complete: false });
    // A 4-byte emoji after 46 bytes does not fit.
    expect(containsPattern(`${"a".repeat(46)}😀`)).toEqual({ pattern: `%${"a".repeat(46)}%`, complete: false });
  });

  it("gives at most 50 bytes for any text, a prefix of the escaped text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 120 }), (text) => {
        const { pattern, complete } = containsPattern(text);
        expect(bytes(pattern)).toBeLessThanOrEqual(MAX_LIKE_PATTERN_BYTES);
        const escaped = text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
        const body = pattern.slice(1, -1);
        expect(escaped.startsWith(body)).toBe(true);
        expect(complete).toBe(body === escaped);
      }),
    );
  });
});
