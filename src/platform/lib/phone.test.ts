import { describe, expect, it } from "vitest";
import { isIndianMobile, isTenDigits, normalizePhone } from "./phone.ts";

describe("normalizePhone", () => {
  it.each([
    ["9820000001", "9820000001"],
    ["+91 98200 00001", "9820000001"],
    ["+91-98200-00001", "9820000001"],
    ["098200-00001", "9820000001"],
    ["(982) 000.0001", "9820000001"],
    ["919820000001", "9820000001"],
    ["[982] 000 0001", "9820000001"],
    ["+919820000001", "9820000001"],
    ["98200\t00001", "9820000001"],
  ])("%j -> %s", (raw, normalized) => {
    expect(normalizePhone(raw)).toBe(normalized);
    expect(isTenDigits(normalizePhone(raw))).toBe(true);
    expect(isIndianMobile(normalizePhone(raw))).toBe(true);
  });

  it.each([
    ["982000001", "982000001"], // 9 digits
    ["19820000001", "19820000001"], // 11 digits not starting 0
    ["929820000001", "929820000001"], // 12 digits not starting 91
    ["9820000001x", "9820000001x"], // letters stay and fail
    ["98200OOOO1", "98200OOOO1"],
    ["", ""],
    ["++919820000001", "+919820000001"], // only one leading + is dropped
  ])("%j is not 10 digits (%j)", (raw, normalized) => {
    expect(normalizePhone(raw)).toBe(normalized);
    expect(isTenDigits(normalizePhone(raw))).toBe(false);
    expect(isIndianMobile(normalizePhone(raw))).toBe(false);
  });

  it("drops only one prefix: 0 then 91 is not a number", () => {
    expect(normalizePhone("0919820000001")).toBe("0919820000001");
  });
});

describe("isIndianMobile", () => {
  it.each(["6000000000", "7000000000", "8000000000", "9999999999"])("accepts %s", (n) => {
    expect(isIndianMobile(n)).toBe(true);
  });

  it.each(["5999999999", "0123456789", "1234567890", "4820000001"])("rejects %s: first digit not 6-9", (n) => {
    expect(isTenDigits(n)).toBe(true);
    expect(isIndianMobile(n)).toBe(false);
  });

  it.each(["982000000", "98200000011", "98200 00001"])("rejects %j: not 10 digits", (n) => {
    expect(isIndianMobile(n)).toBe(false);
  });
});
