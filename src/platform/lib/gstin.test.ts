import { describe, expect, it } from "vitest";
import { gstinCheckCharacter, gstinProblem } from "./gstin.ts";

// Published GSTINs whose check character an independent implementation of the mod-36 rule confirms,
// and the lowest and highest state codes with a correct check character.
const VALID = [
  "27AAPFU0939F1ZV",
  "29AAGCB7383J1Z4",
  "24AAACC1206D1ZM",
  "19AAACI1681G1ZM",
  "01AAPFU0939F1Z9",
  "38AAPFU0939F1ZS",
];

describe("GSTIN", () => {
  it.each(VALID)("accepts %s", (gstin) => {
    expect(gstinProblem(gstin)).toBeNull();
  });

  it("computes the check character of the first 14 characters", () => {
    expect(gstinCheckCharacter("27AAPFU0939F1Z")).toBe("V");
    expect(gstinCheckCharacter("29AAGCB7383J1Z")).toBe("4");
    expect(gstinCheckCharacter("00AAPFU0939F1Z")).toBe("B");
  });

  it.each([
    ["27AAPFU0939F1ZW", "checksum"],
    ["27AAPFU0939F1Z0", "checksum"],
    ["29AAGCB7383J1Z5", "checksum"],
    // State codes outside 01..38, each with a correct check character: the state rule rejects them.
    ["00AAPFU0939F1ZB", "state"],
    ["39AAPFU0939F1ZQ", "state"],
    ["27AAPFU0939F1YV", "pattern"], // 14th character must be Z
    ["27AAPF00939F1ZV", "pattern"], // PAN: five letters first
    ["27AAPFU093XF1ZV", "pattern"], // PAN: then four digits
    ["27AAPFU0939F0ZV", "pattern"], // entity number 0 is not allowed
    ["47AAPFU0939F1ZV", "pattern"], // state code's first digit 0 to 3
    ["27aapfu0939f1zv", "pattern"], // callers upper-case first
    ["27AAPFU0939F1Z", "length"],
    ["27AAPFU0939F1ZVX", "length"],
    ["", "length"],
  ])("rejects %s (%s)", (gstin, problem) => {
    expect(gstinProblem(gstin)).toBe(problem);
  });

  it("accepts a lowercase GSTIN once upper-cased, as the caller does", () => {
    expect(gstinProblem("27aapfu0939f1zv".toUpperCase())).toBeNull();
  });
});
