// Offset paging (docs/specification.md section 4): a page by `skip` or `page` without a cursor skips
// its rows in the listing's own index, never joining them, so it reads at most `skip` plus its own
// bound; a `skip` at or past the total answers the empty page from the kept total alone; and an
// orders total without dates is the customer's kept count, so a customer with 5,000 orders costs
// what one with 20 does. Checked with D1's own rows_read (Server-Timing d1rows) on 5,000 customers.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { customersPageStatements } from "../../src/customers/customers.queries.ts";
import { ordersPageStatements } from "../../src/orders/orders.queries.ts";
import { listBound, ordersBound } from "../helpers/bounds.ts";
import { generatedCustomerStatements, generatedOrderStatements } from "../helpers/generate.ts";
import { BASE, call, type CallResult } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";
import { expectedPagination } from "../fixtures/expected-pagination.ts";

/** Agent 3's generated customers, ids 26 to 5025, after the fixture's 25. */
const GENERATED = 5000;
const CUSTOMERS_TOTAL = 25 + GENERATED;
/**
 * Customer 26 has 5,000 orders and customer 27 20, of the same shape newest first (generate.ts);
 * customer 28's orders follow 27's in orders_customer_date_idx as 27's follow 26's (a walk newest
 * first steps onto the next customer's first entry before it turns back, for each alike).
 */
const BUSY_PHONE = "9500000026";
const QUIET_PHONE = "9500000027";
const BUSY_ORDERS = 5000;
/** Generated postal codes and sales agents, after the fixture's 5 and 3. */
const POSTAL_CODES = 2000;
const SALES_AGENTS = 500;

let key: string;
let agent3: string;

beforeAll(async () => {
  await seedFixture();
  await env.DB.batch([
    ...generatedCustomerStatements(GENERATED, 3),
    ...generatedOrderStatements(26, BUSY_ORDERS, 100_000),
    ...generatedOrderStatements(27, 20, 200_000),
    ...generatedOrderStatements(28, 3, 300_000),
    env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${POSTAL_CODES})
       INSERT INTO postal_codes (id, code) SELECT 1000 + n, printf('%06d', 700000 + n) FROM seq`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${SALES_AGENTS})
       INSERT INTO sales_agents (id, first_name, last_name, mobile_number, email, avatar)
       SELECT 1000 + n, 'Agent', 'No ' || n, '98' || printf('%08d', n), NULL, NULL FROM seq`,
    ),
  ]);
  key = (await makeKey()).secret;
  agent3 = (await makeKey({ name: "Meena's app", agentId: 3 })).secret;
}, 60_000);

/** Pages with thousands of rows before them, on a busy 2-core machine. */
const TIMEOUT_MS = 30_000;

async function get(path: string, secret = key): Promise<CallResult> {
  const res = await call(path, { key: secret });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res;
}

/** The same page reached by the cursor of the page before it (`page` >= 2): what offset paging must answer. */
async function viaCursor(path: string, page: number, secret = key): Promise<CallResult> {
  const before = await get(`${path}&page=${page - 1}`, secret);
  return get(before.body.data.pagination.next_page_url, secret);
}

describe("customers by offset", () => {
  it.each([
    ["every customer", () => key, CUSTOMERS_TOTAL],
    ["an agent-bound key's (agent 3's)", () => agent3, GENERATED],
  ])("%s: skip past the total answers the empty page from the kept total alone (2 rows)", async (_, secret, total) => {
    const res = await get("/api/customers?skip=100000", secret());
    expect(res.body).toEqual({
      data: {
        customers: [],
        pagination: expectedPagination(`${BASE}/api/customers`, {
          current: 10_001,
          last: Math.ceil(total / 10),
          total,
        }),
      },
    });
    // The kept total, and that total once more to see that the page is past it; no customer.
    expect(rowsReadOf(res)).toBe(2);
  });

  it.each([
    ["every customer", () => key, 4901],
    ["an agent-bound key's (agent 3's)", () => agent3, 4926],
  ])(
    "%s: skip=4900 and page=491 read at most the 4,900 skipped index entries plus the page's bound, and answer what the cursor does",
    async (_, secret, firstId) => {
      const expected = await viaCursor("/api/customers?count=10", 491, secret());
      expect(expected.body.data.customers.map((c: { id: number }) => c.id)).toEqual(
        Array.from({ length: 10 }, (_, i) => firstId + i),
      );
      for (const path of ["/api/customers?count=10&skip=4900", "/api/customers?count=10&page=491"]) {
        const res = await get(path, secret());
        expect({ path, body: res.body }).toEqual({ path, body: expected.body });
        expect(rowsReadOf(res), path).toBeLessThanOrEqual(4900 + listBound(10));
      }
    },
    TIMEOUT_MS,
  );

  it("a page of 100 by offset, 4,900 in: at most 4,900 plus its bound, joining none of the skipped customers", async () => {
    const res = await get("/api/customers?count=100&page=50");
    expect(res.body.data.customers).toHaveLength(100);
    expect(rowsReadOf(res)).toBeLessThanOrEqual(4900 + listBound(100));
  });

  it.each([
    [
      "every customer",
      null,
      "SCAN customers",
      "SEARCH customers USING INTEGER PRIMARY KEY (rowid>?)",
      "SEARCH row_counts USING INDEX sqlite_autoindex_row_counts_1 (name=?)",
    ],
    [
      "agent 3's",
      3,
      "SEARCH customers USING COVERING INDEX customers_salesagent_idx (salesagent_id=?)",
      "SEARCH customers USING INDEX customers_salesagent_idx (salesagent_id=? AND id>?)",
      "SEARCH agent_customer_counts USING INTEGER PRIMARY KEY (rowid=?)",
    ],
  ])(
    "%s by offset: the page's first id is skipped to in the listing's own index alone; only the page is joined",
    async (_, agentId, skips, page, kept) => {
      const [rows] = customersPageStatements({ count: 10, skip: 4900 }, agentId);
      expect(await planOf(rows)).toEqual([
        "CO-ROUTINE page",
        `  ${page}`,
        "  SCALAR SUBQUERY 3",
        "    SCALAR SUBQUERY 2",
        `      ${kept}`,
        `    ${skips}`,
        "  SEARCH customer_addresses USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "  SEARCH areas USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "  SEARCH cities USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "  SEARCH states USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "  SEARCH postal_codes USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        // The page's customers as one text, and the kept total.
        "SCAN page",
        "SCALAR SUBQUERY 1",
        `  ${kept}`,
      ]);
    },
  );
});

describe("postal codes and sales agents by offset", () => {
  it.each([
    ["/api/postalcodes", "postalcodes", 5 + POSTAL_CODES],
    ["/api/salesagents", "salesagents", 3 + SALES_AGENTS],
  ])(
    "%s: skip past the total is the empty page from the kept total (2 rows); a deep page reads its skip plus its bound",
    async (path, member, total) => {
      const past = await get(`${path}?skip=100000`);
      expect(past.body).toEqual({
        data: {
          [member]: [],
          pagination: expectedPagination(`${BASE}${path}`, { current: 10_001, last: Math.ceil(total / 10), total }),
        },
      });
      expect(rowsReadOf(past)).toBe(2);
      // The last full page of 100.
      const page = Math.floor(total / 100);
      const expected = await viaCursor(`${path}?count=100`, page);
      const deep = await get(`${path}?count=100&page=${page}`);
      expect(deep.body).toEqual(expected.body);
      expect(deep.body.data[member]).toHaveLength(100);
      expect(rowsReadOf(deep)).toBeLessThanOrEqual((page - 1) * 100 + listBound(100));
    },
  );
});

describe("orders", () => {
  it("a 5,000-order customer's first page reads exactly what a 20-order customer's does, within the bound without its history", async () => {
    const busy = await get(`/api/orders?phone_number=${BUSY_PHONE}`);
    const quiet = await get(`/api/orders?phone_number=${QUIET_PHONE}`);
    expect([busy.body.data.pagination.total, quiet.body.data.pagination.total]).toEqual([BUSY_ORDERS, 20]);
    // generate.ts gives both pages the same lines, statuses and invoices per order (seen: lines, invoices).
    const shape = (res: CallResult) =>
      res.body.data.orders.map((o: { products: unknown[]; invoices: unknown[] }) => [
        o.products.length,
        o.invoices.length,
      ]);
    expect(shape(busy)).toEqual(shape(quiet));
    expect(rowsReadOf(busy)).toBe(rowsReadOf(quiet));
    expect(rowsReadOf(busy)).toBeLessThanOrEqual(await ordersBound(busy));
  });

  it(
    "skip=4900 and page=491 read at most the 4,900 skipped index entries plus the page's bound, and answer what the cursor does",
    async () => {
      const base = `/api/orders?phone_number=${BUSY_PHONE}`;
      const expected = await viaCursor(`${base}&count=10`, 491);
      expect(expected.body.data.orders).toHaveLength(10);
      for (const path of [`${base}&count=10&skip=4900`, `${base}&count=10&page=491`]) {
        const res = await get(path);
        expect({ path, body: res.body }).toEqual({ path, body: expected.body });
        expect(rowsReadOf(res), path).toBeLessThanOrEqual(4900 + (await ordersBound(res)));
      }
    },
    TIMEOUT_MS,
  );

  it("skip at the customer's kept count answers the empty page without reading its orders: 5,000 cost what 20 do", async () => {
    const busy = await get(`/api/orders?phone_number=${BUSY_PHONE}&skip=5000`);
    expect(busy.body.data).toEqual({
      orders: [],
      pagination: expectedPagination(`${BASE}/api/orders`, {
        query: `phone_number=${BUSY_PHONE}`,
        current: 501,
        last: 500,
        total: BUSY_ORDERS,
      }),
    });
    const quiet = await get(`/api/orders?phone_number=${QUIET_PHONE}&skip=20`);
    expect(quiet.body.data.orders).toEqual([]);
    // The customer with its address, the kept total (twice), and a step on each empty part of the page.
    expect(rowsReadOf(busy)).toBe(rowsReadOf(quiet));
    expect(rowsReadOf(busy)).toBeLessThanOrEqual(20);
  });

  it(
    "with dates: the total counts the orders within them; a page reads at most its bound plus those orders, and by offset its skip more",
    async () => {
      const dates = "from_date=01-01-2023&to_date=31-12-2023";
      const { n: inRange } = (await env.DB.prepare(
        "SELECT count(*) AS n FROM orders WHERE customer_id = 26 AND date BETWEEN '2023-01-01' AND '2023-12-31'",
      ).first<{ n: number }>())!;
      const first = await get(`/api/orders?phone_number=${BUSY_PHONE}&${dates}`);
      expect(first.body.data.pagination.total).toBe(inRange);
      expect(rowsReadOf(first)).toBeLessThanOrEqual((await ordersBound(first)) + inRange);
      // The last full page of 10.
      const page = Math.floor(inRange / 10);
      const expected = await viaCursor(`/api/orders?phone_number=${BUSY_PHONE}&${dates}&count=10`, page);
      const deep = await get(`/api/orders?phone_number=${BUSY_PHONE}&${dates}&count=10&page=${page}`);
      expect(deep.body).toEqual(expected.body);
      expect(rowsReadOf(deep)).toBeLessThanOrEqual((page - 1) * 10 + (await ordersBound(deep)) + inRange);
      // Past the dates' total but not the customer's: the skipped entries are those within the dates.
      const past = await get(`/api/orders?phone_number=${BUSY_PHONE}&${dates}&skip=${inRange + 100}`);
      expect(past.body.data.orders).toEqual([]);
      expect(rowsReadOf(past)).toBeLessThanOrEqual(inRange + 100 + 10 + inRange);
    },
    TIMEOUT_MS,
  );

  it("by offset, one statement skips to the page's ids once, in orders_customer_date_idx alone, and joins only their rows", async () => {
    const [page] = ordersPageStatements({ phoneKey: BUSY_PHONE }, { count: 10, skip: 4900 });
    expect(await planOf(page)).toEqual([
      // The customer and what its orders show of it, then the kept total.
      "SEARCH customers USING INDEX customers_phone_key_uq (phone_key=?)",
      "SEARCH customer_addresses USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      "SEARCH areas USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      "SEARCH cities USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      "SEARCH states USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      "SEARCH postal_codes USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      "SCALAR SUBQUERY 2",
      "  SEARCH customer_order_counts USING INTEGER PRIMARY KEY (rowid=?)",
      "  SCALAR SUBQUERY 1",
      "    SEARCH customers USING COVERING INDEX customers_phone_key_uq (phone_key=?)",
      // The page as one text, run once (it no longer reads the customer's row: its part is a column of its own).
      "SCALAR SUBQUERY 13",
      "  CO-ROUTINE page_ids",
      // The LIMIT: the page's count while the offset is below the customer's kept count, else 0.
      "    SCALAR SUBQUERY 5",
      "      SEARCH customer_order_counts USING INTEGER PRIMARY KEY (rowid=?)",
      "      SCALAR SUBQUERY 4",
      "        SEARCH customers USING COVERING INDEX customers_phone_key_uq (phone_key=?)",
      "    SEARCH orders USING COVERING INDEX orders_customer_date_idx (customer_id=?)",
      "    SCALAR SUBQUERY 3",
      "      SEARCH customers USING COVERING INDEX customers_phone_key_uq (phone_key=?)",
      "  SCAN page_ids",
      "  SEARCH orders USING INTEGER PRIMARY KEY (rowid=?)",
      "  SEARCH sales_agents USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      "  SEARCH delivery_agents USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
      // Each order's lines and invoices, in their indexes' order: nothing sorted.
      "  CORRELATED SCALAR SUBQUERY 8",
      "    CO-ROUTINE (subquery-7)",
      "      SEARCH order_items USING INDEX sqlite_autoindex_order_items_1 (order_id=?)",
      "      SEARCH products USING INTEGER PRIMARY KEY (rowid=?)",
      "    SCAN (subquery-7)",
      "  CORRELATED SCALAR SUBQUERY 9",
      "    SEARCH order_statuses USING INDEX order_statuses_order_at_idx (order_id=?)",
      "  CORRELATED SCALAR SUBQUERY 11",
      "    CO-ROUTINE (subquery-10)",
      "      SEARCH invoices USING INDEX invoices_order_date_idx (order_id=?)",
      "    SCAN (subquery-10)",
    ]);
  });
});

/** SQLite's plan of a compiled statement, one detail a line, indented two spaces a level. */
async function planOf(statement: { sql: string; params: unknown[] }): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .bind(...statement.params)
    .all<{ id: number; parent: number; detail: string }>();
  const depth = new Map<number, number>([[0, -1]]);
  return results.map((r) => {
    depth.set(r.id, depth.get(r.parent)! + 1);
    return `${"  ".repeat(depth.get(r.id)!)}${r.detail}`;
  });
}
