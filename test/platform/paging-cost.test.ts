// What a page reads from D1 (its d1rows, the sum of D1's own rows_read; docs/specification.md
// section 4, cost), on a few thousand customers and one customer with many orders: a page's reads
// follow its own rows, not the size of the tables or the depth of the page, when it is reached by
// next_page_url. Pages by offset are test/platform/paging-offsets.test.ts's.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { customersPageStatements } from "../../src/customers/customers.queries.ts";
import { ordersPageStatements } from "../../src/orders/orders.queries.ts";
import { call, type CallResult } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { generatedCustomerStatements } from "../helpers/generate.ts";
import { seedFixture } from "../helpers/seed.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";
import { listBound, ordersBound } from "../helpers/bounds.ts";
import { createBody } from "../fixtures/create-body.ts";

const CUSTOMERS = 3000;
/** Customer 26 (phone 9500000026) has this many orders, with 1 to 3 lines, 1 or 2 statuses and 0 or 1 invoice each. */
const BULK_ORDERS = 600;
const BULK_PHONE = "9500000026";

let key: string;

/** Thousands of rows in a few statements: SQL generates them (the importer is for files, and slower). */
async function generate(): Promise<void> {
  await env.DB.batch([
    ...generatedCustomerStatements(CUSTOMERS, 1),
    env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${BULK_ORDERS})
       INSERT INTO orders (id, order_no, customer_id, salesagent_id, deliveryagent_id, date, item_total_amount, discount_amount,
         return_total_amount, billable_amount)
       SELECT 1000 + n, 'BULK-' || n, 26, 1 + n % 2, CASE WHEN n % 4 = 0 THEN NULL ELSE 1 END,
         date('2024-01-01', '+' || (n % 250) || ' days'), 100, 0, 0, 100 FROM seq`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE line(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM line WHERE k < 3)
       INSERT INTO order_items (order_id, line_no, product_id, quantity, price)
       SELECT o.id, line.k, 1 + line.k % 3, 1, 10 FROM orders o JOIN line ON line.k <= 1 + o.id % 3 WHERE o.customer_id = 26`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < 2)
       INSERT INTO order_statuses (order_id, seq, name, at)
       SELECT o.id, s.k, CASE s.k WHEN 1 THEN 'Placed' ELSE 'Delivered' END, o.date || 'T1' || s.k || ':00:00Z'
       FROM orders o JOIN s ON s.k <= 1 + o.id % 2 WHERE o.customer_id = 26`,
    ),
    env.DB.prepare(
      `INSERT INTO invoices (id, order_id, invoice_number, date, due_date, total_amount, discount_amount, returned_amount,
         invoice_amount, cgst, sgst, igst)
       SELECT 5000 + id, id, 'BULK-INV-' || id, date, date, 100, 0, 0, 100, 9, 9, 0 FROM orders WHERE customer_id = 26 AND id % 2 = 0`,
    ),
  ]);
}

beforeAll(async () => {
  await seedFixture();
  await generate();
  key = (await makeKey()).secret;
}, 60_000);

/** Walks make many requests: on a busy 2-core machine they take longer than vitest's default 5 s. */
const WALK_TIMEOUT_MS = 60_000;

async function get(path: string): Promise<CallResult> {
  const res = await call(path, { key });
  expect(res.status).toBe(200);
  return res;
}

describe("customers", () => {
  it("a first page of 10 reads at most 90 rows, and the total is one row, not a count of 3,025", async () => {
    const res = await get("/api/customers");
    expect(res.body.data.pagination.total).toBe(25 + CUSTOMERS);
    expect(rowsReadOf(res)).toBeLessThanOrEqual(90);
    expect(rowsReadOf(await get("/api/customers?count=1"))).toBeLessThanOrEqual(listBound(1));
  });

  it(
    "walks every customer by next_page_url (count 100): each once, a customer created mid-walk too, each page within bounds",
    async () => {
      const first = await get("/api/customers?count=100");
      const firstRows = rowsReadOf(first);
      expect(firstRows).toBeLessThanOrEqual(listBound(100));
      const seen = new Map<number, number>();
      const count = (ids: number[]) => ids.forEach((id) => seen.set(id, (seen.get(id) ?? 0) + 1));
      count(first.body.data.customers.map((c: { id: number }) => c.id));
      let created: number | undefined;
      let pages = 1;
      for (let url: string | null = first.body.data.pagination.next_page_url; url !== null; pages++) {
        const res = await get(url);
        const ids = res.body.data.customers.map((c: { id: number }) => c.id);
        count(ids);
        const rows = rowsReadOf(res);
        expect({ url, rows }).toEqual({ url, rows: expect.any(Number) });
        expect(rows).toBeLessThanOrEqual(Math.min(listBound(ids.length), 1.25 * firstRows + 20));
        if (pages === 10) {
          const made = await call("/api/customers/create", {
            key,
            method: "POST",
            body: createBody("9400000001", {
              company_name: "Mid Walk",
              contactpersons_name: "M",
              address: "1 Walk Road",
            }),
          });
          expect(made.status).toBe(201);
          created = made.body.data.id;
        }
        url = res.body.data.pagination.next_page_url;
      }
      const all = Array.from({ length: 25 + CUSTOMERS }, (_, i) => i + 1).concat(created!);
      expect([...seen.keys()].sort((a, b) => a - b)).toEqual(all);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      expect(pages).toBe(31);
    },
    WALK_TIMEOUT_MS,
  );

  it(
    "a deep page by page=N reads the index entries before it and its own rows; the same page by its cursor its own alone",
    async () => {
      const deep = await get("/api/customers?count=10&page=300");
      expect(rowsReadOf(deep)).toBeGreaterThan(2990);
      expect(rowsReadOf(deep)).toBeLessThanOrEqual(2990 + listBound(10));
      const before = await get("/api/customers?count=10&page=299");
      const viaCursor = await get(before.body.data.pagination.next_page_url);
      expect(viaCursor.body).toEqual(deep.body);
      expect(rowsReadOf(viaCursor)).toBeLessThanOrEqual(90);
    },
    WALK_TIMEOUT_MS,
  );
});

describe("postal codes and sales agents", () => {
  it.each(["/api/postalcodes?count=2", "/api/postalcodes?count=1&code=400069", "/api/salesagents?count=1"])(
    "%s: every page within bounds, following next_page_url",
    async (path) => {
      const first = await get(path);
      const firstRows = rowsReadOf(first);
      const member = path.includes("postal") ? "postalcodes" : "salesagents";
      expect(firstRows).toBeLessThanOrEqual(listBound(first.body.data[member].length));
      for (let url: string | null = first.body.data.pagination.next_page_url; url !== null;) {
        const res = await get(url);
        expect(rowsReadOf(res)).toBeLessThanOrEqual(
          Math.min(listBound(res.body.data[member].length), 1.25 * firstRows + 20),
        );
        url = res.body.data.pagination.next_page_url;
      }
    },
    WALK_TIMEOUT_MS,
  );
});

describe("orders", () => {
  // Without dates the total is kept; with a date, a page may read the orders within the dates once more.
  it.each([
    [`/api/orders?phone_number=${BULK_PHONE}&count=25`, null],
    [
      `/api/orders?phone_number=${BULK_PHONE}&count=100&from_date=2024-03-01&to_date=2024-06-30`,
      "date BETWEEN '2024-03-01' AND '2024-06-30'",
    ],
    [`/api/orders?phone_number=${BULK_PHONE}&count=1&from_date=2024-08-01`, "date >= '2024-08-01'"],
  ])(
    "%s: walked by next_page_url, every page within its bound, each order once",
    async (path, dates) => {
      const first = await get(path);
      const total = first.body.data.pagination.total as number;
      const real = await env.DB.prepare(
        `SELECT count(*) AS n FROM orders WHERE customer_id = 26 AND ${dates ?? "1 = 1"}`,
      ).first<{ n: number }>();
      expect(total).toBe(real!.n);
      const withinDates = dates === null ? 0 : total;
      const firstRows = rowsReadOf(first);
      expect(firstRows).toBeLessThanOrEqual((await ordersBound(first)) + withinDates);
      const seen = new Set<number>(first.body.data.orders.map((o: { id: number }) => o.id));
      for (let url: string | null = first.body.data.pagination.next_page_url; url !== null;) {
        const res = await get(url);
        const rows = rowsReadOf(res);
        expect(rows).toBeLessThanOrEqual((await ordersBound(res)) + withinDates);
        expect(rows).toBeLessThanOrEqual(1.25 * firstRows + 20);
        for (const o of res.body.data.orders as { id: number }[]) {
          expect(seen.has(o.id)).toBe(false);
          seen.add(o.id);
        }
        url = res.body.data.pagination.next_page_url;
      }
      expect(seen.size).toBe(total);
    },
    WALK_TIMEOUT_MS,
  );
});

describe("query plans", () => {
  /** SQLite's plan of a compiled statement, one detail a line. */
  async function plan(statement: { sql: string; params: unknown[] }): Promise<string[]> {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .bind(...statement.params)
      .all<{ detail: string }>();
    return results.map((r) => r.detail);
  }

  it("seek the customers page by primary key and read the total from row_counts", async () => {
    const [page] = customersPageStatements({ count: 10, skip: 2990, after: { id: 2990 } });
    const details = await plan(page);
    expect(details.filter((d) => /^(SEARCH|SCAN) (customers|row_counts)\b/.test(d))).toEqual([
      "SEARCH customers USING INTEGER PRIMARY KEY (rowid>?)",
      "SEARCH row_counts USING INDEX sqlite_autoindex_row_counts_1 (name=?)",
    ]);
    expect(details).not.toContain("USE TEMP B-TREE FOR ORDER BY");
  });

  it.each([
    [{}, "customer_id=? AND date<?", "SEARCH customer_order_counts USING INTEGER PRIMARY KEY (rowid=?)"],
    // With both dates, the seek's upper bound is the smaller of to_date and the cursor's date.
    [
      { from: "2024-03-01", to: "2024-06-30" },
      "customer_id=? AND date>? AND date<?",
      "SEARCH orders USING COVERING INDEX orders_customer_date_idx (customer_id=? AND date>? AND date<?)",
    ],
  ])(
    "seek an orders page in orders_customer_date_idx, from the cursor's date on (dates %o)",
    async (dates, range, total) => {
      const statements = ordersPageStatements(
        { phoneKey: BULK_PHONE, ...dates },
        { count: 10, skip: 10, after: { date: "2024-05-01", id: 1200 } },
      );
      for (const statement of statements) {
        const details = await plan(statement);
        expect(details.filter((d) => /^SCAN (orders|customers|order_items|order_statuses|invoices)\b/.test(d))).toEqual(
          [],
        );
      }
      // The customer and its address by the phone, the total, then the page's ids: walked in the index's
      // order from the cursor's date on, nothing sorted; each id's order, lines and invoices looked up by it.
      const page = await plan(statements[0]);
      expect(page).toContain(`SEARCH orders USING COVERING INDEX orders_customer_date_idx (${range})`);
      expect(page).not.toContain("USE TEMP B-TREE FOR ORDER BY");
      expect(page.filter((d) => d.startsWith("SEARCH") && !d.includes("customers_phone_key_uq"))).toEqual([
        "SEARCH customer_addresses USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "SEARCH areas USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "SEARCH cities USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "SEARCH states USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "SEARCH postal_codes USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        total,
        `SEARCH orders USING COVERING INDEX orders_customer_date_idx (${range})`,
        "SEARCH orders USING INTEGER PRIMARY KEY (rowid=?)",
        "SEARCH sales_agents USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "SEARCH delivery_agents USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
        "SEARCH order_items USING INDEX sqlite_autoindex_order_items_1 (order_id=?)",
        "SEARCH products USING INTEGER PRIMARY KEY (rowid=?)",
        // Each order's last status: the last entry of order_statuses_order_at_idx for the order.
        "SEARCH order_statuses USING INDEX order_statuses_order_at_idx (order_id=?)",
        "SEARCH invoices USING INDEX invoices_order_date_idx (order_id=?)",
      ]);
    },
  );
});
