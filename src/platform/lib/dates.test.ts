import { describe, expect, it } from "vitest";
import { isIsoDate, parseApiDate } from "./dates.ts";

describe("parseApiDate", () => {
  it.each([
    ["14-03-2026", "2026-03-14"],
    ["2026-03-14", "2026-03-14"],
    ["01-01-2026", "2026-01-01"],
    ["31-12-2025", "2025-12-31"],
    ["29-02-2024", "2024-02-29"], // leap year
    ["29-02-2000", "2000-02-29"], // divisible by 400
    ["2024-02-29", "2024-02-29"],
    ["30-04-2026", "2026-04-30"],
  ])("%s -> %s", (input, iso) => {
    expect(parseApiDate(input)).toBe(iso);
  });

  it.each([
    "31-02-2026",
    "29-02-2026", // not a leap year
    "29-02-1900", // divisible by 100, not by 400
    "31-04-2026",
    "00-01-2026",
    "01-00-2026",
    "01-13-2026",
    "32-01-2026",
    "2026-02-30",
    "1-3-2026", // two digits each
    "14/03/2026",
    "14-03-26",
    "2026-3-14",
    "14-03-2026 ",
    "",
    "0000-01-01", // year 0 does not exist
  ])("rejects %j", (input) => {
    expect(parseApiDate(input)).toBeNull();
  });
});

describe("isIsoDate", () => {
  it("accepts a real yyyy-mm-dd date only", () => {
    expect(isIsoDate("2026-03-14")).toBe(true);
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("14-03-2026")).toBe(false);
    expect(isIsoDate("2026-03-14T00:00:00Z")).toBe(false);
  });
});
