import { describe, expect, it } from "vitest";
import { expectedPagination } from "../../../test/fixtures/expected-pagination.ts";
import {
  buildPagination,
  carriedParams,
  DEFAULT_COUNT,
  lastRowBeforeNextPage,
  MAX_COUNT,
  toCursorPage,
  toPage,
} from "./pagination.ts";

const URL_ = "http://127.0.0.1:8787/api/customers?count=10&skip=20&other=x";
const PATH = "http://127.0.0.1:8787/api/customers";

describe("toPage", () => {
  it("defaults to count 10 and skip 0", () => {
    expect(DEFAULT_COUNT).toBe(10);
    expect(MAX_COUNT).toBe(100);
    expect(toPage({})).toEqual({ count: 10, skip: 0 });
  });

  it("takes skip as given", () => {
    expect(toPage({ count: 25, skip: 7 })).toEqual({ count: 25, skip: 7 });
  });

  it("turns page into skip = (page - 1) * count", () => {
    expect(toPage({ count: 25, page: 3 })).toEqual({ count: 25, skip: 50 });
    expect(toPage({ page: 1 })).toEqual({ count: 10, skip: 0 });
    expect(toPage({ page: 2 })).toEqual({ count: 10, skip: 10 });
  });
});

describe("buildPagination", () => {
  it("describes a middle page", () => {
    expect(buildPagination(URL_, { count: 10, skip: 20 }, 45, [["count", "10"]])).toEqual(
      expectedPagination(PATH, { query: "count=10", current: 3, last: 5, total: 45 }),
    );
  });

  // Whole objects: which page links exist follows from the page and the total.
  it.each([
    [
      "has no previous page on the first page and no next page on the last",
      { count: 10, skip: 0 },
      10,
      { current: 1, last: 1, total: 10 },
    ],
    ["gives last_page 1 for an empty listing", { count: 10, skip: 0 }, 0, { current: 1, last: 1, total: 0 }],
    [
      "serves a page past the end with the same object: no next page, a previous one",
      { count: 10, skip: 100 },
      15,
      { current: 11, last: 2, total: 15 },
    ],
    [
      "takes current_page = floor(skip / count) + 1 for a skip between pages",
      { count: 10, skip: 15 },
      100,
      { current: 2, last: 10, total: 100 },
    ],
  ])("%s", (_name, page, total, expected) => {
    expect(buildPagination(PATH, page, total, [])).toEqual(expectedPagination(PATH, expected));
  });

  it("carries the other parameters in order, encoded, before page", () => {
    const p = buildPagination("http://h/api/orders", { count: 5, skip: 0 }, 12, [
      ["count", "5"],
      ["phone_number", "+91 98200 00001"],
      ["from_date", "01-03-2026"],
    ]);
    expect(p.next_page_url).toBe(
      "http://h/api/orders?count=5&phone_number=%2B91+98200+00001&from_date=01-03-2026&page=2",
    );
    expect(p.path).toBe("http://h/api/orders");
  });
});

describe("carriedParams", () => {
  it("keeps the named parameters that were given, in the named order", () => {
    const query: Record<string, string> = { phone_number: "9820000001", count: "5", skip: "10", other: "x" };
    expect(carriedParams((n) => query[n], ["count", "phone_number", "from_date"])).toEqual([
      ["count", "5"],
      ["phone_number", "9820000001"],
    ]);
  });
});

describe("cursor paging", () => {
  it("puts a cursor page at its page number's place, seeking past the cursor's row", () => {
    expect(toCursorPage(10, { page: 3, after: { id: 20 } })).toEqual({ count: 10, skip: 20, after: { id: 20 } });
  });

  it("puts the cursor on next_page_url only", () => {
    const p = buildPagination(URL_, { count: 10, skip: 20 }, 45, [["count", "10"]], "abc");
    expect([p.first_page_url, p.prev_page_url, p.next_page_url, p.last_page_url]).toEqual([
      `${PATH}?count=10&page=1`,
      `${PATH}?count=10&page=2`,
      `${PATH}?count=10&page=4&cursor=abc`,
      `${PATH}?count=10&page=5`,
    ]);
    expect(buildPagination(URL_, { count: 10, skip: 40 }, 45, [], "abc").next_page_url).toBeNull();
  });

  it("finds the last row before the next page: the page's last, or inside it when skip is not a multiple of count", () => {
    expect(lastRowBeforeNextPage({ count: 10, skip: 20 }, 10)).toBe(9);
    // Rows 11 to 17 (skip 10, count 7): page 3 starts at row 15, after row 14, the page's fourth.
    expect(lastRowBeforeNextPage({ count: 7, skip: 10 }, 7)).toBe(3);
    // Fewer rows than the page holds (rows went away meanwhile): the last one there is.
    expect(lastRowBeforeNextPage({ count: 10, skip: 0 }, 4)).toBe(3);
    expect(lastRowBeforeNextPage({ count: 10, skip: 0 }, 0)).toBe(-1);
  });
});
