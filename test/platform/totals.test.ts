// Totals kept by triggers (row_counts, customer_order_counts, agent_customer_counts;
// docs/specification.md section 4): a listing's `total` is exact on the primary right after
// creates, racing creates, imports, moves and deletes, and reading it is one row.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { importDataset, type Dataset } from "../../src/import/importer.ts";
import { call } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { createBody } from "../fixtures/create-body.ts";
import { customerRecord } from "../fixtures/dataset.ts";
import { order } from "../import/import.helpers.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

/** What count(*) says: the truth that the kept totals must equal. */
async function realCount(table: "customers" | "postal_codes" | "sales_agents"): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row!.n;
}

/** The three listings' totals as the API answers them. */
async function totals() {
  const [customers, postalcodes, salesagents] = await Promise.all(
    ["/api/customers?count=1", "/api/postalcodes?count=1", "/api/salesagents?count=1"].map((path) =>
      call(path, { key }),
    ),
  );
  return {
    customers: customers!.body.data.pagination.total as number,
    postal_codes: postalcodes!.body.data.pagination.total as number,
    sales_agents: salesagents!.body.data.pagination.total as number,
  };
}

async function realCounts() {
  return {
    customers: await realCount("customers"),
    postal_codes: await realCount("postal_codes"),
    sales_agents: await realCount("sales_agents"),
  };
}

const newCustomer = (mobile: string) => ({
  company_name: "Totals Traders",
  mobile_number: mobile,
  contactpersons_name: "Tara",
  address: "1 Count Road",
  area_id: 1,
  postalcode_id: 1,
  gst_treatment: "Unregistered",
  salesagent_id: 1,
});

describe("kept totals", () => {
  it("equal the real counts after the fixture's import", async () => {
    expect(await totals()).toEqual({ customers: 25, postal_codes: 5, sales_agents: 3 });
    expect(await realCounts()).toEqual(await totals());
  });

  it("count every one of several racing creates, and nothing for the ones refused", async () => {
    const mobiles = ["9600000001", "9600000002", "9600000003", "9600000004", "9600000005", "9600000006"];
    // Each number twice: exactly one of each pair wins, the other gets 409 and must not be counted.
    const answers = await Promise.all(
      [...mobiles, ...mobiles].map((mobile) =>
        call("/api/customers/create", { key, method: "POST", body: newCustomer(mobile) }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(6).fill(201), ...Array(6).fill(409)]);
    const after = await totals();
    expect(after.customers).toBe(25 + 6);
    expect(after).toEqual(await realCounts());
  });

  it("stay exact through an import of new rows, and through the same import again (upserts add nothing)", async () => {
    const file = {
      postal_codes: [{ id: 90, code: "400001" }],
      sales_agents: [
        {
          id: 90,
          first_name: "Nita",
          last_name: "Shah",
          mobile_number: "9876500090",
          email: null,
          avatar: null,
          postalcode_ids: [90],
        },
      ],
      customers: [
        customerRecord(900, {
          contact_person_name: "Imported",
          company_name: "Imported Co",
          display_name: "Imported Co",
          email: null,
          contactperson_number: "9500000900",
          gstin: null,
          salesagent_id: 90,
          address: { addressline1: "9 Import Lane", addressline2: "", area_id: 1, postalcode_id: 90 },
        }),
      ],
    } as Dataset;
    await importDataset(env.DB, file);
    const once = await totals();
    expect(once).toEqual({ customers: 32, postal_codes: 6, sales_agents: 4 });
    expect(once).toEqual(await realCounts());
    await importDataset(env.DB, file);
    expect(await totals()).toEqual(once);
  });

  it("follow a delete too", async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM customer_addresses WHERE customer_id = 900"),
      env.DB.prepare("DELETE FROM customers WHERE id = 900"),
    ]);
    expect((await totals()).customers).toBe(31);
    expect(await realCounts()).toEqual(await totals());
  });
});

/** The orders listing's total for a phone number, as the API answers it. */
async function ordersTotal(phone: string): Promise<number> {
  const res = await call(`/api/orders?phone_number=${phone}&count=1`, { key });
  expect(res.status).toBe(200);
  return res.body.data.pagination.total;
}

/** Each customer's orders and each agent's customers, counted (none: left out), against the kept counts. */
async function countsAgainstKept() {
  const all = async (sql: string) => (await env.DB.prepare(sql).all()).results;
  return {
    real: {
      orders: await all("SELECT customer_id AS id, count(*) AS n FROM orders GROUP BY customer_id ORDER BY 1"),
      customers: await all(
        "SELECT salesagent_id AS id, count(*) AS n FROM customers WHERE salesagent_id IS NOT NULL GROUP BY 1 ORDER BY 1",
      ),
    },
    kept: {
      orders: await all("SELECT customer_id AS id, n FROM customer_order_counts WHERE n > 0 ORDER BY 1"),
      customers: await all("SELECT agent_id AS id, n FROM agent_customer_counts WHERE n > 0 ORDER BY 1"),
    },
  };
}

describe("a customer's kept count of orders (the orders total without dates)", () => {
  // Customers 4 and 5 (phones 9700000004 and 9700000005) have no orders in the fixture.
  const importOrders = (orders: ReturnType<typeof order>[]) => importDataset(env.DB, { orders } as Dataset);

  it("is exact after an import of new orders, a move of one to another customer, the same import again, and a delete", async () => {
    expect([await ordersTotal("9820000001"), await ordersTotal("9700000004"), await ordersTotal("9700000005")]).toEqual(
      [12, 0, 0],
    );
    await importOrders([
      order(900, { customer_id: 4 }),
      order(901, { customer_id: 4 }),
      order(902, { customer_id: 4 }),
    ]);
    expect([await ordersTotal("9700000004"), await ordersTotal("9700000005")]).toEqual([3, 0]);
    await importOrders([order(901, { customer_id: 5 })]);
    expect([await ordersTotal("9700000004"), await ordersTotal("9700000005")]).toEqual([2, 1]);
    await importOrders([order(901, { customer_id: 5 })]);
    expect([await ordersTotal("9700000004"), await ordersTotal("9700000005")]).toEqual([2, 1]);
    await env.DB.batch(
      ["order_items", "order_statuses", "invoices"]
        .map((t) => env.DB.prepare(`DELETE FROM ${t} WHERE order_id = 900`))
        .concat(env.DB.prepare("DELETE FROM orders WHERE id = 900")),
    );
    expect([await ordersTotal("9700000004"), await ordersTotal("9700000005")]).toEqual([1, 1]);
    const { real, kept } = await countsAgainstKept();
    expect(kept.orders).toEqual(real.orders);
  });
});

describe("an agent's kept count of customers (an agent-bound key's customers total)", () => {
  async function agentTotal(secret: string): Promise<number> {
    const res = await call("/api/customers?count=1", { key: secret });
    expect(res.status).toBe(200);
    return res.body.data.pagination.total;
  }

  it("is exact after creates, an import that moves customers to another agent or to none, and a delete", async () => {
    const agent1 = (await makeKey({ agentId: 1 })).secret;
    const agent2 = (await makeKey({ agentId: 2 })).secret;
    const before = [await agentTotal(agent1), await agentTotal(agent2)];
    for (const mobile of ["9600000101", "9600000102"]) {
      const made = await call("/api/customers/create", {
        key: agent2,
        method: "POST",
        body: createBody(mobile, { salesagent_id: 2 }),
      });
      expect(made.status).toBe(201);
    }
    expect([await agentTotal(agent1), await agentTotal(agent2)]).toEqual([before[0], before[1]! + 2]);
    await importDataset(env.DB, {
      customers: [customerRecord(6, { salesagent_id: 2 }), customerRecord(7, { salesagent_id: null })],
    } as Dataset);
    expect([await agentTotal(agent1), await agentTotal(agent2)]).toEqual([before[0]! - 2, before[1]! + 3]);
    await env.DB.batch([
      env.DB.prepare("DELETE FROM customer_addresses WHERE customer_id = 6"),
      env.DB.prepare("DELETE FROM customers WHERE id = 6"),
    ]);
    expect([await agentTotal(agent1), await agentTotal(agent2)]).toEqual([before[0]! - 2, before[1]! + 2]);
    const { real, kept } = await countsAgainstKept();
    expect(kept.customers).toEqual(real.customers);
  });
});

describe("the migration that keeps them", () => {
  it("fills them from the rows that exist", async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes("order_and_agent_count_triggers"))!;
    const backfill = migration.queries.filter((q) => !q.includes("CREATE TRIGGER"));
    expect(backfill).toHaveLength(2);
    await env.DB.batch([
      env.DB.prepare("DELETE FROM customer_order_counts"),
      env.DB.prepare("DELETE FROM agent_customer_counts"),
      ...backfill.map((q) => env.DB.prepare(q)),
    ]);
    const { real, kept } = await countsAgainstKept();
    expect(real.orders).not.toEqual([]);
    expect(real.customers).not.toEqual([]);
    expect(kept).toEqual(real);
  });
});
