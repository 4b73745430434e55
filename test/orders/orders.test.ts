import { beforeAll, describe, expect, it } from "vitest";
import { cursorParam } from "../helpers/cursor-param.ts";
import { BASE, call, errorEnvelope, expectValidationFailure } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { expectedOrder } from "../fixtures/expected.ts";
import { expectedPagination } from "../fixtures/expected-pagination.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

const PATH = `${BASE}/api/orders`;
const [order101, order102, order103] = [expectedOrder(101), expectedOrder(102), expectedOrder(103)];
/** Orders 104 to 112 of the fixture, written out from the same pattern. */
const older = (id: number) => expectedOrder(id);

/** Customer 1's orders as normalized in a cursor: no date bounds. */
const customer1Scope = { phone: "9820000001", from: null, to: null };

/** @param next the cursor's scope and the order that the next page starts after, when there is a next page */
function pagination(
  query: string,
  current: number,
  last: number,
  total: number,
  perPage = 10,
  next?: { scope: Record<string, string | null>; after: { date: string; id: number } },
) {
  const cursor = next ? cursorParam("orders", next.scope, perPage, current + 1, next.after) : "";
  return expectedPagination(PATH, { query, current, last, total, perPage, cursor });
}

describe("GET /orders", () => {
  it("serves a customer's orders newest first (date, then id), each with everything it carries", async () => {
    const res = await call("/api/orders?phone_number=9820000001", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        orders: [
          order102,
          order101,
          order103,
          older(112),
          older(111),
          older(110),
          older(109),
          older(108),
          older(107),
          older(106),
        ],
        pagination: pagination("phone_number=9820000001", 1, 2, 12, 10, {
          scope: customer1Scope,
          after: { date: "2026-01-12", id: 106 },
        }),
      },
    });
  });

  it("follows next_page_url to the rest", async () => {
    const first = await call("/api/orders?phone_number=9820000001&count=10", { key });
    const second = await call(first.body.data.pagination.next_page_url, { key });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      data: {
        orders: [older(105), older(104)],
        pagination: pagination("count=10&phone_number=9820000001", 2, 2, 12),
      },
    });
  });

  it.each([
    ["+91 98200 00001", "%2B91+98200+00001"],
    ["+919820000001", "%2B919820000001"],
    ["919820000001", "919820000001"],
    ["098200-00001", "098200-00001"],
    ["(98200) 000.01", "%2898200%29+000.01"],
  ])("finds the customer by %s (normalized) and carries the number as given", async (phone, encoded) => {
    const res = await call(`/api/orders?count=2&phone_number=${encodeURIComponent(phone)}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.orders).toEqual([order102, order101]);
    // The cursor holds the number normalized: one cursor whichever way the number was written.
    expect(res.body.data.pagination.next_page_url).toBe(
      `${PATH}?count=2&phone_number=${encoded}&page=2${cursorParam("orders", customer1Scope, 2, 2, { date: "2026-03-14", id: 101 })}`,
    );
  });

  it("finds a customer stored as '098200 00002': no address, agent but no delivery agent, last status by instant", async () => {
    const res = await call("/api/orders?phone_number=9820000002", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        orders: [expectedOrder(150)],
        pagination: pagination("phone_number=9820000002", 1, 1, 1),
      },
    });
  });

  it("answers 200 with an empty list for a customer without orders", async () => {
    const res = await call("/api/orders?phone_number=9820000003", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { orders: [], pagination: pagination("phone_number=9820000003", 1, 1, 0) } });
  });

  it("filters by inclusive dates, dd-mm-yyyy or yyyy-mm-dd", async () => {
    const dmy = await call("/api/orders?phone_number=9820000001&from_date=14-03-2026&to_date=14-03-2026", { key });
    expect(dmy.status).toBe(200);
    expect(dmy.body).toEqual({
      data: {
        orders: [order102, order101],
        pagination: pagination("phone_number=9820000001&from_date=14-03-2026&to_date=14-03-2026", 1, 1, 2),
      },
    });
    const iso = await call("/api/orders?phone_number=9820000001&from_date=2026-01-17&to_date=2026-02-01", { key });
    expect(iso.body.data.orders.map((o: { id: number }) => o.id)).toEqual([103, 112, 111]);
    const open = await call("/api/orders?phone_number=9820000001&to_date=11-01-2026", { key });
    expect(open.body.data.orders.map((o: { id: number }) => o.id)).toEqual([105, 104]);
  });

  it("answers 404 when no customer has the number", async () => {
    const res = await call("/api/orders?phone_number=9999999999", { key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorEnvelope(404, "NOT_FOUND", "No customer has this phone number", "/api/orders"));
  });

  const PHONE = "must be a 10-digit phone number (a +91 or 0 prefix is allowed)";
  const DATE = "must be a real date written dd-mm-yyyy (or yyyy-mm-dd)";
  it.each([
    ["", [{ field: "phone_number", message: "is required" }]],
    ["phone_number=12345", [{ field: "phone_number", message: PHONE }]],
    ["phone_number=98200000011", [{ field: "phone_number", message: PHONE }]],
    ["phone_number=98200abcde", [{ field: "phone_number", message: PHONE }]],
    ["phone_number=9820000001&from_date=31-02-2026", [{ field: "from_date", message: DATE }]],
    ["phone_number=9820000001&to_date=2026%2F03%2F14", [{ field: "to_date", message: DATE }]],
    [
      "phone_number=9820000001&from_date=15-03-2026&to_date=14-03-2026",
      [{ field: "from_date", message: "must not be after to_date" }],
    ],
    [
      "count=500&skip=1&page=1",
      [
        { field: "phone_number", message: "is required" },
        { field: "count", message: "must be an integer between 1 and 100" },
        { field: "page", message: "cannot be combined with skip" },
      ],
    ],
  ])("rejects ?%s with 422 naming every broken parameter", async (query, fields) => {
    await expectValidationFailure("/api/orders", query, key, fields);
  });
});
