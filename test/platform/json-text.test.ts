// The pages whose records SQLite writes as JSON text (docs/performance.md, "Pages as JSON text") answer
// the very bytes that the records as rows, shaped by the serializers and JSON.stringify, make: on the
// demo data and on values planted into it (whole, fractional and extreme amounts, an order without
// lines or invoices, a customer without an address, unicode, quotes and control characters); and so do
// GET /sync's records, a first sync's and those of a later sync from the log.
import { env } from "cloudflare:workers";
import { asc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import demo from "../../data/demo.json";
import { customers, orders } from "../../drizzle/schema.ts";
import { customersJsonByIdsStatement, selectCustomersWithAddress } from "../../src/customers/customers.queries.ts";
import { toCustomer } from "../../src/customers/customers.serialize.ts";
import { importDataset } from "../../src/import/importer.ts";
import { type OrderJsonRow, orderJson, ordersJsonByIdsStatement } from "../../src/orders/orders.queries.ts";
import { runBatch } from "../../src/platform/db/compiled.ts";
import type { Database } from "../../src/platform/db/database.ts";
import { asJavaScriptWrites, jsonNumber } from "../../src/platform/db/json-text.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { call, type CallResult } from "../helpers/http.ts";
import {
  customersByIdsStatement,
  ordersByIdsStatement,
  ordersOf,
  shownCustomer,
} from "../helpers/reference-records.ts";

const db = drizzle(env.DB) as unknown as Database;
let key: string;

// Doubles that JavaScript and SQLite write differently, or alike only by chance.
const EDGE_AMOUNTS = [
  50,
  0,
  -0,
  1250.5,
  54.03,
  0.1 + 0.2,
  1 / 3,
  2 / 3,
  0.1,
  100.07,
  99999999.99,
  1e15 + 0.25,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  1e20,
  1e21,
  1.5e300,
  1e-5,
  1e-7,
  0.000123,
  123456789.12345678,
  -12.5,
  -0.30000000000000004,
  5e-324,
  Number.MAX_VALUE,
];
const EDGE_TEXTS = [
  "श्री गणेश ट्रेडर्स",
  'Café “Quoted” "Shop" \\ back\\slash / slash',
  "tab\there, new\nline, \u0001\u001f\u007f control",
  "emoji 😀🛒 and \u2028\u2029 separators",
  "0000000000000000000 digits",
  "5e+7 exponent-looking text",
];

beforeAll(async () => {
  await importDataset(env.DB, demo as Parameters<typeof importDataset>[1]);
  key = (await makeKey()).secret;
  const statements: D1PreparedStatement[] = [];
  // Orders 1 to 26 get one edge amount each in every amount, their lines and their invoices.
  EDGE_AMOUNTS.forEach((amount, i) => {
    const id = i + 1;
    statements.push(
      env.DB.prepare(
        "UPDATE orders SET item_total_amount = ?1, discount_amount = ?1, return_total_amount = ?1, billable_amount = ?1 WHERE id = ?2",
      ).bind(amount, id),
      env.DB.prepare("UPDATE order_items SET price = ?1 WHERE order_id = ?2").bind(amount, id),
      env.DB.prepare(
        "UPDATE invoices SET total_amount = ?1, discount_amount = ?1, returned_amount = ?1, invoice_amount = ?1, cgst = ?1, sgst = ?1, igst = ?1 WHERE order_id = ?2",
      ).bind(amount, id),
    );
  });
  // Customers 1 to 6 get edge names; the customers of some orders lose their address, lines or invoices.
  EDGE_TEXTS.forEach((text, i) =>
    statements.push(
      env.DB.prepare(
        "UPDATE customers SET contact_person_name = ?1, company_name = ?1, display_name = ?1, email = NULL WHERE id = ?2",
      ).bind(text, i + 1),
    ),
  );
  statements.push(
    env.DB.prepare("DELETE FROM order_items WHERE order_id IN (30, 31)"),
    env.DB.prepare("DELETE FROM invoices WHERE order_id IN (31, 32)"),
    env.DB.prepare("DELETE FROM order_statuses WHERE order_id = 33"),
    env.DB.prepare("UPDATE orders SET salesagent_id = NULL, deliveryagent_id = NULL WHERE id = 34"),
    env.DB.prepare(
      "DELETE FROM customer_addresses WHERE customer_id IN (SELECT customer_id FROM orders WHERE id IN (35, 2))",
    ),
  );
  await env.DB.batch(statements);
});

/** The bytes that JSON.stringify makes of the answer, its pagination taken from the answer itself. */
function stringified(text: string, list: "customers" | "orders", items: unknown[]): string {
  const pagination = JSON.parse(text).data.pagination;
  return JSON.stringify({ data: { [list]: items, pagination } });
}

describe("answers as JSON text are the bytes of the records shaped in JavaScript", () => {
  it("GET /customers, every page of 100", async () => {
    const rows = await selectCustomersWithAddress(db).orderBy(asc(customers.id));
    expect(rows.length).toBe(demo.customers.length);
    for (let page = 1; page <= Math.ceil(rows.length / 100); page++) {
      const res = await call(`/api/customers?count=100&page=${page}`, { key });
      expect(res.status).toBe(200);
      const expected = rows.slice((page - 1) * 100, page * 100).map(toCustomer);
      expect(res.text).toBe(stringified(res.text, "customers", expected));
    }
  });

  it("GET /orders of the planted orders' customers and every tenth other, all on one page", async () => {
    const owners = await db
      .selectDistinct({ id: customers.id, phone: customers.phoneKey, agent: customers.salesagentId })
      .from(customers)
      .innerJoin(orders, eq(orders.customerId, customers.id))
      .where(sql`${orders.id} <= 40 or ${customers.id} % 10 = 0`);
    expect(owners.length).toBeGreaterThan(40);
    let compared = 0;
    for (const owner of owners) {
      const res = await call(`/api/orders?phone_number=${owner.phone}&count=100`, { key });
      expect(res.status).toBe(200);
      // The rows read by id with the customer's agent as the book: customers with no agent are left out.
      if (owner.agent === null) continue;
      const ids = res.body.data.orders.map((o: { id: number }) => o.id);
      const [customerRows, orderRows] = await runBatch(db, [
        customersByIdsStatement([owner.id], owner.agent),
        ordersByIdsStatement(ids, owner.agent),
      ]);
      const shown = shownCustomer(customerRows[0]!);
      const expected = ordersOf(orderRows, () => shown);
      expect(expected.map((o) => o.id)).toEqual(ids);
      expect(res.text).toBe(stringified(res.text, "orders", expected));
      // Sync's records by id as JSON text: the same bytes too.
      const [customerJson, orderJsonRows] = await runBatch(db, [
        customersJsonByIdsStatement([owner.id], owner.agent),
        ordersJsonByIdsStatement(ids, owner.agent),
      ]);
      expect(customerJson[0]!.json).toBe(JSON.stringify(toCustomer(customerRows[0]!)));
      const texts = new Map(
        (orderJsonRows as OrderJsonRow[]).map((row) => [row.id, orderJson(row, customerJson[0]!)] as const),
      );
      expect(ids.map((id: number) => texts.get(id))).toEqual(expected.map((order) => JSON.stringify(order)));
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  }, 30_000);

  it("GET /orders 3 a page by next_page_url, and GET /customers 7 a page: every page's bytes, each record once in order", async () => {
    const owners = await db
      .selectDistinct({ id: customers.id, phone: customers.phoneKey, agent: customers.salesagentId })
      .from(customers)
      .innerJoin(orders, eq(orders.customerId, customers.id))
      .where(sql`${orders.id} <= 40 and ${customers.salesagentId} is not null`);
    expect(owners.length).toBeGreaterThan(20);
    for (const owner of owners) {
      const all = await call(`/api/orders?phone_number=${owner.phone}&count=100`, { key });
      const walked: number[] = [];
      for (let url: string | null = `/api/orders?phone_number=${owner.phone}&count=3`; url !== null;) {
        const res: CallResult = await call(url, { key });
        expect(res.status).toBe(200);
        const ids = res.body.data.orders.map((o: { id: number }) => o.id);
        const [customerRows, orderRows] = await runBatch(db, [
          customersByIdsStatement([owner.id], owner.agent!),
          ordersByIdsStatement(ids, owner.agent!),
        ]);
        const shown = shownCustomer(customerRows[0]!);
        expect(res.text).toBe(
          stringified(
            res.text,
            "orders",
            ordersOf(orderRows, () => shown),
          ),
        );
        walked.push(...ids);
        url = res.body.data.pagination.next_page_url;
      }
      expect(walked).toEqual(all.body.data.orders.map((o: { id: number }) => o.id));
    }
    const rows = await selectCustomersWithAddress(db).orderBy(asc(customers.id));
    const walked: number[] = [];
    for (let url: string | null = "/api/customers?count=7"; url !== null;) {
      const res: CallResult = await call(url, { key });
      const ids = res.body.data.customers.map((c: { id: number }) => c.id);
      const expected = ids.map((id: number) => toCustomer(rows.find((row) => row.id === id)!));
      expect(res.text).toBe(stringified(res.text, "customers", expected));
      walked.push(...ids);
      url = res.body.data.pagination.next_page_url;
    }
    expect(walked).toEqual(rows.map((row) => row.id));
  }, 60_000);

  it("plants every edge amount and text that it means to compare", async () => {
    const planted = await env.DB.prepare("SELECT billable_amount AS amount FROM orders WHERE id <= ?1 ORDER BY id")
      .bind(EDGE_AMOUNTS.length)
      .all<{ amount: number }>();
    expect(planted.results.map((r) => r.amount)).toEqual(EDGE_AMOUNTS.map((a) => (Object.is(a, -0) ? 0 : a)));
  });
});

/** Every answer of `agent`'s sync from `cursor` (none: a first sync) at `limit`, until has_more is false. */
async function syncAnswers(agent: number, limit: number, cursor?: string) {
  const answers: { text: string; body: any }[] = [];
  for (let more = true; more;) {
    const query = `salesagent_id=${agent}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await call(`/api/sync?${query}`, { key });
    expect(res.status).toBe(200);
    answers.push({ text: res.text, body: res.body });
    cursor = res.body.data.next_cursor;
    more = res.body.data.has_more;
  }
  return { answers, cursor: cursor! };
}

/** The bytes that JSON.stringify makes of a sync answer whose records are read as rows and shaped in JavaScript. */
async function syncStringified(agent: number, body: any): Promise<string> {
  const changes = body.data.changes as { type: "customer" | "order"; id: number; op: string; data: any }[];
  const upserts = (type: string) => changes.filter((c) => c.type === type && c.op === "upsert");
  const orderIds = upserts("order").map((c) => c.id);
  const customerIds = new Set([
    ...upserts("customer").map((c) => c.id),
    ...upserts("order").map((c) => c.data.customer.id),
  ]);
  const [customerRows, orderRows] = await runBatch(db, [
    customersByIdsStatement(customerIds, agent),
    ordersByIdsStatement(orderIds, agent),
  ]);
  const byId = new Map(customerRows.map((row) => [row.id!, row]));
  const orders = new Map(
    ordersOf(orderRows, (order) => shownCustomer(byId.get(order.customerId!)!)).map((order) => [order.id, order]),
  );
  const expected = changes.map(({ type, id, op }) => ({
    type,
    id,
    op,
    data: op === "delete" ? null : type === "customer" ? toCustomer(byId.get(id)!) : orders.get(id)!,
  }));
  const { next_cursor, has_more } = body.data;
  return JSON.stringify({ data: { changes: expected, next_cursor, has_more } });
}

describe("GET /sync's records as JSON text are the bytes of the records shaped in JavaScript", () => {
  it("every answer of every agent's first sync, at limit 1000 and at limit 7, and a later sync from the log", async () => {
    const agents = await db
      .selectDistinct({ id: customers.salesagentId })
      .from(customers)
      .where(sql`${customers.salesagentId} is not null`);
    expect(agents.length).toBeGreaterThan(5);
    let records = 0;
    const cursors = new Map<number, string>();
    for (const { id: agent } of agents) {
      for (const limit of [1000, 7]) {
        const { answers, cursor } = await syncAnswers(agent!, limit);
        for (const answer of answers) {
          expect(answer.text).toBe(await syncStringified(agent!, answer.body));
          records += answer.body.data.changes.length;
        }
        cursors.set(agent!, cursor);
      }
    }
    expect(records).toBeGreaterThan(2 * (demo.customers.length - 15 + 700));

    // Changes after those syncs: an edge name, an order's amount, an order deleted and one moved to another customer.
    const owner = await env.DB.prepare(
      "SELECT c.id, c.salesagent_id AS agent FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.id > 40 AND c.salesagent_id IS NOT NULL GROUP BY c.id HAVING count(*) >= 3 ORDER BY c.id LIMIT 1",
    ).first<{ id: number; agent: number }>();
    const mine = await env.DB.prepare("SELECT id FROM orders WHERE customer_id = ?1 ORDER BY id LIMIT 3")
      .bind(owner!.id)
      .all<{ id: number }>()
      .then((r) => r.results.map((o) => o.id));
    const other = await env.DB.prepare("SELECT id FROM customers WHERE salesagent_id = ?1 AND id != ?2 LIMIT 1")
      .bind(owner!.agent, owner!.id)
      .first<{ id: number }>();
    const [changed, moved, deleted] = mine;
    await env.DB.batch([
      env.DB.prepare("UPDATE customers SET display_name = ?1 WHERE id = ?2").bind(EDGE_TEXTS[0], owner!.id),
      env.DB.prepare("UPDATE orders SET billable_amount = 1 / 3.0 WHERE id = ?1").bind(changed),
      env.DB.prepare("UPDATE orders SET customer_id = ?1 WHERE id = ?2").bind(other!.id, moved),
      env.DB.prepare("DELETE FROM order_items WHERE order_id = ?1").bind(deleted),
      env.DB.prepare("DELETE FROM invoices WHERE order_id = ?1").bind(deleted),
      env.DB.prepare("DELETE FROM order_statuses WHERE order_id = ?1").bind(deleted),
      env.DB.prepare("DELETE FROM orders WHERE id = ?1").bind(deleted),
    ]);
    const later = await syncAnswers(owner!.agent, 1000, cursors.get(owner!.agent));
    const ops = later.answers.flatMap((a) => a.body.data.changes.map((c: any) => `${c.type} ${c.op}`));
    expect(new Set(ops)).toEqual(new Set(["customer upsert", "order delete", "order upsert"]));
    for (const answer of later.answers) expect(answer.text).toBe(await syncStringified(owner!.agent, answer.body));
  }, 60_000);
});

describe("asJavaScriptWrites", () => {
  it("writes every number as JSON.stringify does, whatever SQLite wrote", async () => {
    // Random doubles of every magnitude and of two decimals, and the edge amounts, through SQLite's JSON.
    const values = [...EDGE_AMOUNTS];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      values.push(Math.round(random() * 10 ** (1 + (i % 9))) / 100);
      values.push((random() - 0.5) * 10 ** ((i % 40) - 20));
    }
    const x = sql`cast(value as real)`;
    const rows = await db
      .select({ text: sql<string>`json_object('v', ${jsonNumber(x)})` })
      .from(sql`json_each(${JSON.stringify(values)})`);
    const texts = rows.map((row) => asJavaScriptWrites(row.text));
    expect(texts).toEqual(values.map((v) => JSON.stringify({ v })));
  });
});
