import { expect, it } from "vitest";
import { isD1Bookmark, MAX_BOOKMARK_LENGTH } from "./d1-bookmark.ts";

it.each([
  "00000000-00000003-00000000-00000000000000000000000000000000", // as local D1 makes them
  "00000001-00000002-00004e2b-0123456789abcdef0123456789ABCDEF",
  "0-0",
  `${"a".repeat(MAX_BOOKMARK_LENGTH - 2)}-b`,
])("accepts %j", (value) => {
  expect(isD1Bookmark(value)).toBe(true);
});

it.each([
  undefined,
  null,
  "",
  "first-primary",
  "first-unconstrained",
  "00000000", // one group: nothing joined
  "-00000000-00000001",
  "00000000-00000001-",
  "00000000--00000001",
  "00000000-0000000g",
  "00000000 -00000001",
  " 00000000-00000001",
  "00000000-00000001\n",
  "00000000_00000001",
  "０0000000-00000001", // a full-width digit is not hex
  `${"a".repeat(MAX_BOOKMARK_LENGTH - 1)}-b`,
  `00000000-${"0".repeat(10_000)}`,
])("refuses %j", (value) => {
  expect(isD1Bookmark(value)).toBe(false);
});
