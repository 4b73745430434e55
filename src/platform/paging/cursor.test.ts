import { describe, expect, it } from "vitest";
import { type Cursor, cursorMismatch, decodeCursor, encodeCursor } from "./cursor.ts";

const customers: Cursor = { listing: "customers", scope: {}, count: 10, agent: null, page: 2, after: { id: 10 } };
const orders: Cursor = {
  listing: "orders",
  scope: { phone: "9820000001", from: "2026-01-01", to: null },
  count: 5,
  agent: null,
  page: 3,
  after: { date: "2026-03-14", id: 101 },
};

/** base64url of a JSON text, as a hand-made cursor would be. */
const handMade = (json: unknown) =>
  btoa(JSON.stringify(json)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("encodeCursor and decodeCursor", () => {
  it("round-trip every listing's cursor", () => {
    for (const cursor of [
      customers,
      orders,
      { ...customers, listing: "salesagents" as const },
      { ...customers, listing: "postalcodes" as const, scope: { code: "400069" } },
    ]) {
      expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    }
    expect(decodeCursor(encodeCursor({ ...customers, agent: 7 }))).toEqual({ ...customers, agent: 7 });
  });

  it("make base64url JSON: URL-safe as it is, and readable (nothing in it is secret)", () => {
    const text = encodeCursor(customers);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")))).toEqual({
      v: 1,
      l: "customers",
      s: {},
      n: 10,
      a: null,
      p: 2,
      k: [10],
    });
  });

  it("round-trip scope values outside ASCII", () => {
    const cursor = { ...customers, scope: { name: "Śrī ₹ 🙂" } };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each([
    ["empty", ""],
    ["not base64url", "abc+/="],
    ["not JSON", handMade("x").slice(2)],
    ["too long", "A".repeat(5000)],
    ["JSON, not an object", handMade([1, 2])],
    ["another version", handMade({ v: 2, l: "customers", s: {}, n: 10, a: null, p: 2, k: [10] })],
    ["an unknown listing", handMade({ v: 1, l: "areas", s: {}, n: 10, a: null, p: 2, k: [10] })],
    ["a scope value that is a number", handMade({ v: 1, l: "customers", s: { x: 1 }, n: 10, a: null, p: 2, k: [10] })],
    ["count 0", handMade({ v: 1, l: "customers", s: {}, n: 0, a: null, p: 2, k: [10] })],
    [
      "page 1 (no cursor leads to the first page)",
      handMade({ v: 1, l: "customers", s: {}, n: 10, a: null, p: 1, k: [10] }),
    ],
    ["a fractional page", handMade({ v: 1, l: "customers", s: {}, n: 10, a: null, p: 2.5, k: [10] })],
    [
      "a page past the largest a request may ask for",
      handMade({ v: 1, l: "customers", s: {}, n: 10, a: null, p: 1e15, k: [10] }),
    ],
    ["an agent that is not an id", handMade({ v: 1, l: "customers", s: {}, n: 10, a: "1", p: 2, k: [10] })],
    ["an id that is a string", handMade({ v: 1, l: "customers", s: {}, n: 10, a: null, p: 2, k: ["10"] })],
    [
      "a dated key for customers",
      handMade({ v: 1, l: "customers", s: {}, n: 10, a: null, p: 2, k: ["2026-01-01", 10] }),
    ],
    ["an undated key for orders", handMade({ v: 1, l: "orders", s: {}, n: 10, a: null, p: 2, k: [10] })],
    [
      "a date that is not yyyy-mm-dd",
      handMade({ v: 1, l: "orders", s: {}, n: 10, a: null, p: 2, k: ["14-03-2026", 10] }),
    ],
    ["an unsafe integer", handMade({ v: 1, l: "customers", s: {}, n: 10, a: null, p: 2, k: [2 ** 60] })],
  ])("refuse %s", (_, text) => {
    expect(decodeCursor(text)).toBeNull();
  });
});

describe("cursorMismatch", () => {
  const request = { listing: "orders" as const, scope: { ...orders.scope }, count: 5, agent: null };

  it("accepts the request the cursor was made for, with or without its page", () => {
    expect(cursorMismatch(orders, request)).toBeNull();
    expect(cursorMismatch(orders, { ...request, page: 3 })).toBeNull();
  });

  it.each([
    ["another listing", { ...request, listing: "customers" as const }, "is for another listing"],
    [
      "another phone",
      { ...request, scope: { ...request.scope, phone: "9820000002" } },
      "is for other filters than this request's",
    ],
    [
      "another date bound",
      { ...request, scope: { ...request.scope, to: "2026-03-31" } },
      "is for other filters than this request's",
    ],
    [
      "a filter fewer",
      { ...request, scope: { phone: "9820000001", from: "2026-01-01" } },
      "is for other filters than this request's",
    ],
    ["another count", { ...request, count: 10 }, "is for another count"],
    ["another agent", { ...request, agent: 3 }, "is for another sales agent"],
    ["another page", { ...request, page: 2 }, "leads to page 3, not page 2"],
  ])("names %s", (_, other, message) => {
    expect(cursorMismatch(orders, other)).toBe(message);
  });
});
