import { beforeAll, describe, expect, it } from "vitest";
import { cursorParam } from "../helpers/cursor-param.ts";
import { BASE, call, expectValidationFailure } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { expectedCustomer } from "../fixtures/expected.ts";
import { expectedPagination } from "../fixtures/expected-pagination.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

const customer1 = expectedCustomer(1);
const customer2 = expectedCustomer(2);
const customer3 = expectedCustomer(3);
/** Customers 4 to 25 of the fixture, written out from the same pattern. */
const padding = (id: number) => expectedCustomer(id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const PATH = `${BASE}/api/customers`;
/** The cursor of a customers next_page_url: to page `page` (of `count`), after customer `id`. */
const cursor = (count: number, page: number, id: number) => cursorParam("customers", {}, count, page, { id });

/** The field errors of a count, skip or page out of its range. */
const BAD_COUNT = { field: "count", message: "must be an integer between 1 and 100" };
const BAD_SKIP = { field: "skip", message: "must be an integer between 0 and 999999999999999" };
const BAD_PAGE = { field: "page", message: "must be an integer between 1 and 999999999999999" };

describe("GET /customers", () => {
  it("serves the first page of ten by id with the full address group, [] for none, values as stored", async () => {
    const res = await call("/api/customers", { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.body).toEqual({
      data: {
        customers: [customer1, customer2, customer3, ...range(4, 10).map(padding)],
        pagination: expectedPagination(PATH, { current: 1, last: 3, total: 25, cursor: cursor(10, 2, 10) }),
      },
    });
  });

  it("follows next_page_url to the last page, carrying count", async () => {
    const first = await call(`/api/customers?count=10&page=2`, { key });
    expect(first.body.data.customers.map((c: { id: number }) => c.id)).toEqual(range(11, 20));
    const last = await call(first.body.data.pagination.next_page_url, { key });
    expect(last.status).toBe(200);
    expect(last.body).toEqual({
      data: {
        customers: range(21, 25).map(padding),
        pagination: expectedPagination(PATH, { query: "count=10", current: 3, last: 3, total: 25 }),
      },
    });
  });

  it("pages by skip: current_page is floor(skip / count) + 1", async () => {
    const res = await call(`/api/customers?count=7&skip=10`, { key });
    expect(res.body.data.customers.map((c: { id: number }) => c.id)).toEqual(range(11, 17));
    // Page 3 of 7 starts after customer 14, inside this page (rows 11 to 17): as offset paging has it.
    expect(res.body.data.pagination).toEqual(
      expectedPagination(PATH, {
        query: "count=7",
        current: 2,
        last: 4,
        total: 25,
        perPage: 7,
        cursor: cursor(7, 3, 14),
      }),
    );
  });

  it("answers a page past the end with an empty list and the same pagination", async () => {
    const res = await call(`/api/customers?page=9`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        customers: [],
        pagination: expectedPagination(PATH, { current: 9, last: 3, total: 25 }),
      },
    });
  });

  it("serves count=100 and count=1 (the bounds)", async () => {
    const all = await call(`/api/customers?count=100`, { key });
    expect(all.body.data.customers.map((c: { id: number }) => c.id)).toEqual(range(1, 25));
    expect(all.body.data.pagination.last_page).toBe(1);
    expect(all.body.data.pagination.next_page_url).toBeNull();
    const one = await call(`/api/customers?count=1&skip=24`, { key });
    expect(one.body.data.customers).toEqual([padding(25)]);
    expect(one.body.data.pagination.current_page).toBe(25);
    expect(one.body.data.pagination.last_page).toBe(25);
  });

  it("is the same endpoint at the root, with its own path in the URLs", async () => {
    const res = await call(`/customers?count=2`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.customers).toEqual([customer1, customer2]);
    expect(res.body.data.pagination.path).toBe(`${BASE}/customers`);
    expect(res.body.data.pagination.next_page_url).toBe(`${BASE}/customers?count=2&page=2${cursor(2, 2, 2)}`);
  });

  it.each([
    ["count=0", [BAD_COUNT]],
    ["count=101", [BAD_COUNT]],
    ["count=abc", [BAD_COUNT]],
    ["count=1.5", [BAD_COUNT]],
    ["count=", [BAD_COUNT]],
    ["count=%2010", [BAD_COUNT]],
    ["count=1&count=2", [{ field: "count", message: "must be given once, as a single value" }]],
    ["skip=-1", [BAD_SKIP]],
    ["skip=99999999999999999999", [BAD_SKIP]],
    ["page=0", [BAD_PAGE]],
    ["skip=10&page=2", [{ field: "page", message: "cannot be combined with skip" }]],
    ["count=0&skip=x&page=0", [BAD_COUNT, BAD_SKIP, BAD_PAGE]],
  ])("rejects %s with 422 naming every broken parameter", async (query, fields) => {
    await expectValidationFailure("/api/customers", query, key, fields);
  });

  it("ignores unknown parameters", async () => {
    const res = await call(`/api/customers?count=1&colour=blue`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.customers).toEqual([customer1]);
    expect(res.body.data.pagination.next_page_url).toBe(`${PATH}?count=1&page=2${cursor(1, 2, 1)}`);
  });
});
