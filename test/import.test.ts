// The importer's rules and failure modes, through its platform-neutral API on the real local D1.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ImportError,
  importDataset,
  importRecords,
  type Dataset,
  type OrderRecord,
  type RawRecord,
} from "../src/import/index.ts";
import { purgeLookupCache } from "../src/cache/purge.ts";
import { writeBeforeBatchD1 } from "./helpers/faults.ts";
import { call } from "./helpers/http.ts";
import { makeKey } from "./helpers/keys.ts";

const TABLES = [
  "states",
  "cities",
  "areas",
  "postal_codes",
  "sales_agents",
  "sales_agent_postal_codes",
  "delivery_agents",
  "products",
  "customers",
  "customer_addresses",
  "orders",
  "order_items",
  "order_statuses",
  "invoices",
];

type Rows = Record<string, unknown>[];

async function rows(table: string): Promise<Rows> {
  return (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all<Record<string, unknown>>()).results;
}

async function snapshot(): Promise<Record<string, Rows>> {
  return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await rows(t)])));
}

async function stagingTables(): Promise<string[]> {
  const res = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'import%'").all<{
    name: string;
  }>();
  return res.results.map((r) => r.name);
}

// Each test starts from empty tables (storage is shared by the tests of one file).
beforeEach(async () => {
  await env.DB.batch([...TABLES].reverse().map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});

function order(id: number, overrides: Partial<OrderRecord> = {}): OrderRecord {
  return {
    id,
    order_no: `SO-${id}`,
    customer_id: 1,
    salesagent_id: 1,
    deliveryagent_id: null,
    date: "2026-03-14",
    item_total_amount: 1250.5,
    discount_amount: 50,
    return_total_amount: 0,
    billable_amount: 1200.5,
    items: [
      { product_id: 1, quantity: 5, price: 250.1 },
      { product_id: 2, quantity: 1, price: 0 },
    ],
    statuses: [
      { name: "Placed", at: "2026-03-14T09:30:00Z" },
      { name: "Processed", at: "2026-03-14T15:00:00+05:30" },
    ],
    invoices: [
      {
        id: id * 10,
        invoice_number: `INV-${id}`,
        date: "2026-03-15",
        due_date: "2026-04-14",
        total_amount: 1250.5,
        discount_amount: 50,
        returned_amount: 0,
        invoice_amount: 1200.5,
        cgst: 54.03,
        sgst: 54.03,
        igst: 0,
      },
    ],
    ...overrides,
  };
}

/** A small, valid dataset; a fresh copy each call, so that a test may spoil it. */
function base(): Dataset {
  return {
    states: [{ id: 1, code: "MH", name: "Maharashtra" }],
    cities: [{ id: 1, name: "Mumbai", code: "MUM", state_id: 1 }],
    areas: [{ id: 1, name: "Andheri East", area_code: "AE", city_id: 1 }],
    postal_codes: [
      { id: 1, code: "400069" },
      { id: 2, code: "400050" },
    ],
    sales_agents: [
      {
        id: 1,
        first_name: "Asha",
        last_name: "Rao",
        mobile_number: "9876543210",
        email: "asha@example.com",
        avatar: null,
        postalcode_ids: [1, 2],
      },
    ],
    delivery_agents: [{ id: 1, first_name: "Ravi", last_name: "K", phone_number: "9123456780" }],
    products: [
      { id: 1, sku: "SKU-001", name: "Tea 250g" },
      { id: 2, sku: "SKU-002", name: "Sugar 1kg" },
    ],
    customers: [
      {
        id: 1,
        contact_person_name: "Sunil Mehta",
        company_name: "Mehta General Stores",
        display_name: "Mehta General Stores",
        email: "",
        contactperson_number: "+91 98200 00001",
        company_phone: null,
        gst_treatment: "Registered",
        gstin: "27AAPFU0939F1ZV",
        customer_code: null,
        status: "Active",
        approval: "accepted",
        salesagent_id: 1,
        address: { addressline1: "Shop 4, Sai Plaza", addressline2: "", area_id: 1, postalcode_id: 1 },
      },
      {
        id: 2,
        contact_person_name: "Farah Khan",
        company_name: "Khan Provisions",
        display_name: "Khan Provisions",
        email: null,
        contactperson_number: "022-2345 6789",
        company_phone: "022-2345 6789",
        gst_treatment: "Unregistered",
        gstin: null,
        customer_code: "C-2",
        status: "Inactive",
        approval: "pending",
        salesagent_id: null,
        address: null,
      },
    ],
    orders: [order(1), order(2, { customer_id: 2, salesagent_id: null, deliveryagent_id: 1, statuses: [], invoices: [] })],
  };
}

interface Expected {
  type?: string;
  id?: number;
  where: string;
  field?: string;
  problem?: string | RegExp;
}

/** The import fails with an ImportError naming the record and field, and changes nothing. */
async function expectRejected(attempt: () => Promise<unknown>, expected: Expected): Promise<ImportError> {
  const before = await snapshot();
  const err = await attempt().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportError);
  const e = err as ImportError;
  expect({ type: e.type, id: e.id, where: e.where, field: e.field }).toEqual({
    type: expected.type,
    id: expected.id,
    where: expected.where,
    field: expected.field,
  });
  if (expected.problem !== undefined) expect(e.problem).toMatch(expected.problem);
  expect(await snapshot()).toEqual(before);
  expect(await stagingTables()).toEqual([]);
  return e;
}

describe("a valid dataset", () => {
  it("writes every record with its ids, the normalized phone key, UTC status times and positions", async () => {
    const summary = await importDataset(env.DB, base());
    expect(summary.counts).toEqual({
      states: 1,
      cities: 1,
      areas: 1,
      postal_codes: 2,
      sales_agents: 1,
      sales_agent_postal_codes: 2,
      delivery_agents: 1,
      products: 2,
      customers: 2,
      customer_addresses: 1,
      orders: 2,
      order_items: 4,
      order_statuses: 2,
      invoices: 1,
    });
    const db = await snapshot();
    expect(db.sales_agent_postal_codes).toEqual([
      { sales_agent_id: 1, postal_code_id: 1 },
      { sales_agent_id: 1, postal_code_id: 2 },
    ]);
    expect(db.customers).toEqual([
      {
        id: 1,
        contact_person_name: "Sunil Mehta",
        company_name: "Mehta General Stores",
        display_name: "Mehta General Stores",
        email: "",
        contactperson_number: "+91 98200 00001",
        phone_key: "9820000001",
        company_phone: null,
        gst_treatment: "Registered",
        gstin: "27AAPFU0939F1ZV",
        customer_code: null,
        status: "Active",
        approval: "accepted",
        salesagent_id: 1,
        origin: "import",
      },
      {
        id: 2,
        contact_person_name: "Farah Khan",
        company_name: "Khan Provisions",
        display_name: "Khan Provisions",
        email: null,
        contactperson_number: "022-2345 6789",
        phone_key: "2223456789", // a landline: kept, and normalized like any number
        company_phone: "022-2345 6789",
        gst_treatment: "Unregistered",
        gstin: null,
        customer_code: "C-2",
        status: "Inactive",
        approval: "pending",
        salesagent_id: null,
        origin: "import",
      },
    ]);
    expect(db.customer_addresses).toEqual([
      { customer_id: 1, addressline1: "Shop 4, Sai Plaza", addressline2: "", area_id: 1, postalcode_id: 1 },
    ]);
    expect(db.orders).toEqual([
      {
        id: 1,
        order_no: "SO-1",
        customer_id: 1,
        salesagent_id: 1,
        deliveryagent_id: null,
        date: "2026-03-14",
        item_total_amount: 1250.5,
        discount_amount: 50,
        return_total_amount: 0,
        billable_amount: 1200.5,
      },
      {
        id: 2,
        order_no: "SO-2",
        customer_id: 2,
        salesagent_id: null,
        deliveryagent_id: 1,
        date: "2026-03-14",
        item_total_amount: 1250.5,
        discount_amount: 50,
        return_total_amount: 0,
        billable_amount: 1200.5,
      },
    ]);
    expect(db.order_items).toEqual([
      { order_id: 1, line_no: 1, product_id: 1, quantity: 5, price: 250.1 },
      { order_id: 1, line_no: 2, product_id: 2, quantity: 1, price: 0 },
      { order_id: 2, line_no: 1, product_id: 1, quantity: 5, price: 250.1 },
      { order_id: 2, line_no: 2, product_id: 2, quantity: 1, price: 0 },
    ]);
    expect(db.order_statuses).toEqual([
      { order_id: 1, seq: 1, name: "Placed", at: "2026-03-14T09:30:00.000Z" },
      { order_id: 1, seq: 2, name: "Processed", at: "2026-03-14T09:30:00.000Z" },
    ]);
    expect(db.invoices).toEqual([
      {
        id: 10,
        order_id: 1,
        invoice_number: "INV-1",
        date: "2026-03-15",
        due_date: "2026-04-14",
        total_amount: 1250.5,
        discount_amount: 50,
        returned_amount: 0,
        invoice_amount: 1200.5,
        cgst: 54.03,
        sgst: 54.03,
        igst: 0,
      },
    ]);
    expect(await stagingTables()).toEqual([]);
  });

  it("gives the same state when imported twice", async () => {
    await importDataset(env.DB, base());
    const once = await snapshot();
    await importDataset(env.DB, base());
    expect(await snapshot()).toEqual(once);
  });

  it("upserts: changed fields are updated and child sets replaced by the file's, other rows kept", async () => {
    await importDataset(env.DB, base());
    const first = await snapshot();
    const change: Dataset = {
      sales_agents: [{ ...base().sales_agents![0]!, last_name: "Rao-Iyer", postalcode_ids: [2] }],
      customers: [{ ...base().customers![0]!, display_name: "Mehta Stores", address: null }],
      orders: [
        order(1, {
          billable_amount: 999,
          items: [{ product_id: 2, quantity: 3, price: 10 }],
          statuses: [{ name: "Delivered", at: "2026-03-16 10:00:00" }],
          invoices: [{ ...order(1).invoices![0]!, invoice_amount: 1000 }],
        }),
      ],
    };
    await importDataset(env.DB, change);
    const db = await snapshot();
    expect(db.sales_agents).toEqual([{ ...first.sales_agents![0], last_name: "Rao-Iyer" }]);
    expect(db.sales_agent_postal_codes).toEqual([{ sales_agent_id: 1, postal_code_id: 2 }]);
    expect(db.customers).toEqual([{ ...first.customers![0], display_name: "Mehta Stores" }, first.customers![1]]);
    expect(db.customer_addresses).toEqual([]);
    expect(db.orders).toEqual([{ ...first.orders![0], billable_amount: 999 }, first.orders![1]]);
    expect(db.order_items).toEqual([
      { order_id: 1, line_no: 1, product_id: 2, quantity: 3, price: 10 },
      ...first.order_items!.filter((r) => r.order_id === 2),
    ]);
    expect(db.order_statuses).toEqual([{ order_id: 1, seq: 1, name: "Delivered", at: "2026-03-16T10:00:00.000Z" }]);
    expect(db.invoices).toEqual([{ ...first.invoices![0], invoice_amount: 1000 }]);
    for (const t of ["states", "cities", "areas", "postal_codes", "delivery_agents", "products"]) {
      expect(db[t]).toEqual(first[t]);
    }
  });

  it("replaces an order's invoices by the file's: one that the file leaves out is deleted", async () => {
    await importDataset(env.DB, base());
    const first = await snapshot();
    expect(first.invoices!.some((i) => i.order_id === 1)).toBe(true);
    await importDataset(env.DB, { orders: [order(1, { invoices: [] })] });
    expect(await snapshot()).toEqual({ ...first, invoices: first.invoices!.filter((i) => i.order_id !== 1) });
  });

  it("accepts references to rows already in the database (a second file with only orders)", async () => {
    await importDataset(env.DB, base());
    await importDataset(env.DB, {
      cities: [{ id: 2, name: "Pune", code: "PNQ", state_id: 1 }],
      orders: [order(3, { customer_id: 2 }), order(4)],
    });
    const db = await snapshot();
    expect(db.cities).toEqual([
      { id: 1, name: "Mumbai", code: "MUM", state_id: 1 },
      { id: 2, name: "Pune", code: "PNQ", state_id: 1 },
    ]);
    expect(db.orders!.map((o) => [o.id, o.customer_id, o.order_no])).toEqual([
      [1, 1, "SO-1"],
      [2, 2, "SO-2"],
      [3, 2, "SO-3"],
      [4, 1, "SO-4"],
    ]);
    expect(db.invoices!.map((i) => [i.id, i.order_id])).toEqual([
      [10, 1],
      [30, 3],
      [40, 4],
    ]);
  });

  it("lets records swap unique values (order_no, invoice_number, phone number) in one import", async () => {
    await importDataset(env.DB, base());
    const [c1, c2] = base().customers!;
    await importDataset(env.DB, {
      customers: [
        { ...c1!, contactperson_number: c2!.contactperson_number },
        { ...c2!, contactperson_number: c1!.contactperson_number },
      ],
      orders: [
        order(1, { order_no: "SO-2", invoices: [{ ...order(1).invoices![0]!, invoice_number: "INV-X" }] }),
        order(2, { customer_id: 2, order_no: "SO-1", invoices: [{ ...order(1).invoices![0]!, id: 20, invoice_number: "INV-1" }] }),
      ],
    });
    const db = await snapshot();
    expect(db.customers!.map((c) => [c.id, c.phone_key])).toEqual([
      [1, "2223456789"],
      [2, "9820000001"],
    ]);
    expect(db.orders!.map((o) => [o.id, o.order_no])).toEqual([
      [1, "SO-2"],
      [2, "SO-1"],
    ]);
    expect(db.invoices!.map((i) => [i.id, i.order_id, i.invoice_number])).toEqual([
      [10, 1, "INV-X"],
      [20, 2, "INV-1"],
    ]);
  });

  it("takes left-out nullable fields as null, an address [] as none, and left-out defaults as their defaults", async () => {
    const data = base();
    const { email: _e, company_phone: _p, gstin: _g, customer_code: _c, address: _a, salesagent_id: _s, ...bare } =
      data.customers![1]!;
    data.customers![1] = bare;
    const { area_code: _ac, ...area } = data.areas![0]!;
    data.areas![0] = area;
    data.customers![0]!.address = [];
    const { statuses: _st, invoices: _in, deliveryagent_id: _d, ...orderBare } = data.orders![1]!;
    data.orders![1] = orderBare;
    await importDataset(env.DB, data);
    const db = await snapshot();
    expect(db.customers![1]).toMatchObject({ email: null, company_phone: null, gstin: null, customer_code: null, salesagent_id: null });
    expect(db.customer_addresses).toEqual([]);
    expect(db.areas).toEqual([{ id: 1, name: "Andheri East", area_code: "", city_id: 1 }]);
    expect(db.orders![1]).toMatchObject({ deliveryagent_id: null });
  });

  it("imports a file larger than one staging batch", async () => {
    const data = base();
    data.orders = Array.from({ length: 6000 }, (_, i) => order(i + 1));
    const summary = await importDataset(env.DB, data);
    expect(summary.counts.orders).toBe(6000);
    expect(summary.counts.order_items).toBe(12000);
    const counts = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM orders) AS o, (SELECT count(*) FROM order_items) AS i, (SELECT count(*) FROM invoices) AS v",
    ).first();
    expect(counts).toEqual({ o: 6000, i: 12000, v: 6000 });
  });
});

describe("a bad record rejects the whole import and changes nothing", () => {
  // Each import below is tried on top of the base dataset, so "changes nothing" is tested against real rows.
  beforeEach(async () => {
    await importDataset(env.DB, base());
  });

  it("names a missing field", async () => {
    const data = base();
    delete (data.customers![1] as Partial<(typeof data.customers & {})[number]>).company_name;
    const e = await expectRejected(() => importDataset(env.DB, data), {
      type: "customer",
      id: 2,
      where: "customers[1]",
      field: "company_name",
      problem: "missing",
    });
    expect(e.message).toBe("customer 2 at customers[1], field company_name: missing");
  });

  it("names a missing id", async () => {
    const data = base();
    delete (data.products![1] as { id?: number }).id;
    await expectRejected(() => importDataset(env.DB, data), { type: "product", where: "products[1]", field: "id", problem: "missing" });
  });

  it.each([
    ["a string quantity", { items: [{ product_id: 1, quantity: "5", price: 1 }] }, "items[0].quantity", "must be an integer"],
    ["a fractional quantity", { items: [{ product_id: 1, quantity: 1.5, price: 1 }] }, "items[0].quantity", "must be an integer"],
    ["a string amount", { billable_amount: "1200.50" }, "billable_amount", "must be a number"],
    ["a numeric order_no", { order_no: 7 }, "order_no", "must be a string"],
    ["items that are not an array", { items: {} }, "items", "must be an array"],
    ["an item that is not an object", { items: [5] }, "items[0]", "must be an object"],
    ["a null customer", { customer_id: null }, "customer_id", "must be an integer"],
  ])("names a field of the wrong type: %s", async (_name, overrides, field, problem) => {
    const data = base();
    data.orders![1] = { ...data.orders![1]!, ...(overrides as unknown as Partial<OrderRecord>) };
    await expectRejected(() => importDataset(env.DB, data), { type: "order", id: 2, where: "orders[1]", field, problem });
  });

  it("rejects a record that is not an object", async () => {
    const data = base();
    (data.states as unknown[]).push("Goa");
    await expectRejected(() => importDataset(env.DB, data), { type: "state", where: "states[1]", problem: "must be a JSON object" });
  });

  it.each([
    ["an order's customer", "orders", { customer_id: 99 }, "customer_id", "no customer 99 earlier in the file or in the database"],
    ["an item's product", "orders", { items: [{ product_id: 7, quantity: 1, price: 1 }] }, "items[0].product_id", /no product 7/],
    ["an order's delivery agent", "orders", { deliveryagent_id: 5 }, "deliveryagent_id", /no delivery_agent 5/],
    ["a customer's sales agent", "customers", { salesagent_id: 8 }, "salesagent_id", /no sales_agent 8/],
    [
      "an address's area",
      "customers",
      { address: { addressline1: "x", addressline2: "", area_id: 4, postalcode_id: 1 } },
      "address.area_id",
      /no area 4/,
    ],
  ] as const)("names a broken reference: %s", async (_name, member, overrides, field, problem) => {
    const data = base();
    const list = data[member] as unknown as Record<string, unknown>[];
    list[1] = { ...list[1], ...overrides };
    const type = member === "orders" ? "order" : "customer";
    await expectRejected(() => importDataset(env.DB, data), { type, id: 2, where: `${member}[1]`, field, problem });
  });

  it("names a broken reference in a sales agent's pincodes and a city's state", async () => {
    const data = base();
    data.sales_agents![0]!.postalcode_ids = [1, 9];
    await expectRejected(() => importDataset(env.DB, data), {
      type: "sales_agent",
      id: 1,
      where: "sales_agents[0]",
      field: "postalcode_ids[1]",
      problem: /no postal_code 9/,
    });
    await expectRejected(() => importDataset(env.DB, { cities: [{ id: 5, name: "X", code: "X", state_id: 3 }] }), {
      type: "city",
      id: 5,
      where: "cities[0]",
      field: "state_id",
      problem: /no state 3/,
    });
  });

  it("names a duplicate id in the file, of a record or of an invoice", async () => {
    const data = base();
    data.customers!.push({ ...data.customers![0]!, contactperson_number: "9000000000" });
    await expectRejected(() => importDataset(env.DB, data), {
      type: "customer",
      id: 1,
      where: "customers[2]",
      field: "id",
      problem: "another customer in the file has id 1",
    });
    const twice = base();
    twice.orders![1]!.invoices = [{ ...order(1).invoices![0]!, invoice_number: "INV-other" }];
    await expectRejected(() => importDataset(env.DB, twice), {
      type: "order",
      id: 2,
      where: "orders[1]",
      field: "invoices[0].id",
      problem: "another invoice in the file has id 10",
    });
  });

  it("names two customers of the file whose numbers normalize alike, with both ids", async () => {
    const data = base();
    data.customers![1]!.contactperson_number = "098200-00001";
    const e = await expectRejected(() => importDataset(env.DB, data), {
      type: "customer",
      id: 2,
      where: "customers[1]",
      field: "contactperson_number",
    });
    expect(e.message).toBe(
      "customer 2 at customers[1], field contactperson_number: normalizes to 9820000001, as the number of customer 1 does",
    );
  });

  it("names a customer whose number normalizes like that of another customer in the database", async () => {
    const data: Dataset = { customers: [{ ...base().customers![1]!, id: 3, contactperson_number: "919820000001" }] };
    const e = await expectRejected(() => importDataset(env.DB, data), {
      type: "customer",
      id: 3,
      where: "customers[0]",
      field: "contactperson_number",
    });
    expect(e.problem).toBe("normalizes to 9820000001, as the number of customer 1 does in the database");
  });

  it("names a duplicate order_no, in the file or against the database", async () => {
    const data = base();
    data.orders![1]!.order_no = "SO-1";
    await expectRejected(() => importDataset(env.DB, data), {
      type: "order",
      id: 2,
      where: "orders[1]",
      field: "order_no",
      problem: '"SO-1" is also the order_no of order 1',
    });
    await expectRejected(() => importDataset(env.DB, { orders: [order(3, { order_no: "SO-2" })] }), {
      type: "order",
      id: 3,
      where: "orders[0]",
      field: "order_no",
      problem: '"SO-2" is also the order_no of order 2 in the database',
    });
  });

  it("names a duplicate invoice_number, in the file or against the database", async () => {
    const data = base();
    data.orders![1]!.invoices = [{ ...order(1).invoices![0]!, id: 11 }];
    await expectRejected(() => importDataset(env.DB, data), {
      type: "order",
      id: 2,
      where: "orders[1]",
      field: "invoices[0].invoice_number",
      problem: '"INV-1" is also the invoice_number of invoice 10',
    });
    const other = order(3);
    other.invoices = [order(3).invoices![0]!, { ...order(3).invoices![0]!, id: 31, invoice_number: "INV-1" }];
    await expectRejected(() => importDataset(env.DB, { orders: [other] }), {
      type: "order",
      id: 3,
      where: "orders[0]",
      field: "invoices[1].invoice_number",
      problem: '"INV-1" is also the invoice_number of invoice 10 in the database',
    });
  });

  it.each([
    ["an order date that does not exist", { date: "2026-02-30" }, "date", 'must be a date yyyy-mm-dd, got "2026-02-30"'],
    ["an order date in another format", { date: "14-03-2026" }, "date", /must be a date yyyy-mm-dd/],
    [
      "an invoice due date",
      { invoices: [{ ...order(2).invoices![0]!, due_date: "2026-13-01" }] },
      "invoices[0].due_date",
      /must be a date yyyy-mm-dd/,
    ],
    ["a status time", { statuses: [{ name: "Placed", at: "yesterday" }] }, "statuses[0].at", /must be a date-time/],
    ["a status time of a day that does not exist", { statuses: [{ name: "Placed", at: "2026-02-30T10:00:00Z" }] }, "statuses[0].at", /must be a date-time/],
  ] as const)("names a bad date: %s", async (_name, overrides, field, problem) => {
    const data = base();
    data.orders![1] = { ...data.orders![1]!, ...(overrides as Partial<OrderRecord>) };
    await expectRejected(() => importDataset(env.DB, data), { type: "order", id: 2, where: "orders[1]", field, problem });
  });

  it("names an unknown status name", async () => {
    const data = base();
    data.orders![0]!.statuses = [
      { name: "Placed", at: "2026-03-14T09:30:00Z" },
      { name: "Shipped" as "Placed", at: "2026-03-14T10:30:00Z" },
    ];
    await expectRejected(() => importDataset(env.DB, data), {
      type: "order",
      id: 1,
      where: "orders[0]",
      field: "statuses[1].name",
      problem: /^must be one of Placed, Processed, .*Postponed; got "Shipped"$/,
    });
  });

  it("rejects an unknown member of the dataset", async () => {
    await expectRejected(() => importDataset(env.DB, { ...base(), shipments: [] } as Dataset), {
      where: "shipments",
      problem: /^unknown member/,
    });
  });

  it("names the line of a record read from JSON Lines", async () => {
    const records: RawRecord[] = [
      { type: "state", value: { id: 7, code: "GA", name: "Goa" }, where: "line 1" },
      { type: "city", value: { id: 7, name: "Panaji", code: "PNJ", state_id: 8 }, where: "line 2" },
    ];
    const e = await expectRejected(() => importRecords(env.DB, records), {
      type: "city",
      id: 7,
      where: "line 2",
      field: "state_id",
    });
    expect(e.message).toBe("city 7 at line 2, field state_id: no state 8 earlier in the file or in the database");
  });

  it("rejects a bad record after more than one staging batch was written", async () => {
    const data = base();
    data.orders = Array.from({ length: 6000 }, (_, i) => order(i + 1));
    data.orders[5999]!.items[0]!.price = Number.NaN;
    await expectRejected(() => importDataset(env.DB, data), {
      type: "order",
      id: 6000,
      where: "orders[5999]",
      field: "items[0].price",
      problem: "must be a number",
    });
  });

  it("rejects a duplicate found only after the whole file was staged", async () => {
    const data = base();
    data.orders = Array.from({ length: 6000 }, (_, i) => order(i + 1));
    data.orders[5999]!.order_no = "SO-17";
    await expectRejected(() => importDataset(env.DB, data), {
      type: "order",
      id: 6000,
      where: "orders[5999]",
      field: "order_no",
      problem: '"SO-17" is also the order_no of order 17',
    });
  });
});

describe("customers created through the API", () => {
  // The base dataset has customers 1 and 2: the API's next customers are 3 and 4.
  beforeEach(async () => {
    await importDataset(env.DB, base());
  });

  async function createThroughApi(mobile: string, company: string): Promise<number> {
    const { secret } = await makeKey();
    const res = await call("/api/customers/create", {
      method: "POST",
      key: secret,
      body: {
        company_name: company,
        mobile_number: mobile,
        contactpersons_name: "R. Sharma",
        address: "12 MG Road",
        area_id: 1,
        postalcode_id: 1,
        gst_treatment: "Unregistered",
        salesagent_id: 1,
      },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  /** A customer record of the file with this id and number, otherwise customer 2's. */
  function upstream(id: number, number: string) {
    return { ...base().customers![1]!, id, contactperson_number: number, company_name: `Upstream ${id}` };
  }

  it("are marked as made by the API; imported ones as imported", async () => {
    const id = await createThroughApi("98765 43219", "Sharma Kirana");
    const origins = await env.DB.prepare("SELECT id, origin FROM customers ORDER BY id").all();
    expect(origins.results).toEqual([
      { id: 1, origin: "import" },
      { id: 2, origin: "import" },
      { id, origin: "api" },
    ]);
  });

  it("fail the whole import when the file gives their ids to another shop, naming every such id", async () => {
    const first = await createThroughApi("98765 43219", "Sharma Kirana");
    const second = await createThroughApi("98765 43218", "Verma Stores");
    expect([first, second]).toEqual([3, 4]);
    // Customer 1 is imported: the file may change it. 3 and 4 were made by the API: it may not.
    const data: Dataset = {
      customers: [
        { ...base().customers![0]!, display_name: "Renamed" },
        upstream(3, "9811100003"),
        upstream(4, "9811100004"),
      ],
    };
    const e = await expectRejected(() => importDataset(env.DB, data), {
      type: "customer",
      id: 3,
      where: "customers[1]",
      field: "id",
    });
    expect(e.message).toBe(
      "customer 3 at customers[1], field id: customers 3, 4 of the database were created through the API, and the " +
        "file gives these ids to records with another contact number; an import never overwrites such a customer " +
        "(give the file's records other ids, or the same number if they are the same shop)",
    );
  });

  it("fail it for a record without a 10-digit number too", async () => {
    const id = await createThroughApi("98765 43219", "Sharma Kirana");
    const e = await expectRejected(() => importDataset(env.DB, { customers: [upstream(id, "12345")] }), {
      type: "customer",
      id,
      where: "customers[0]",
      field: "id",
    });
    expect(e.problem).toMatch(/^customer 3 of the database was created through the API/);
  });

  it("fail the import even when the API creates the customer after the check, just before the final batch", async () => {
    const file: Dataset = { customers: [upstream(3, "9811100003")] };
    const racing = writeBeforeBatchD1(/api_customer_guard/, () => createThroughApi("98765 43219", "Sharma Kirana"));
    const before = await snapshot();
    const err = await importDataset(racing, file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).message).toMatch(/^customer 3 at customers\[0\], field id: customer 3 of the database was created through the API/);
    // Nothing of the file was written; the API's customer is there as the API made it.
    const after = await snapshot();
    expect({ ...after, customers: after.customers!.filter((c) => c.id !== 3), customer_addresses: after.customer_addresses!.filter((a) => a.customer_id !== 3) }).toEqual(before);
    expect(after.customers!.find((c) => c.id === 3)).toMatchObject({ company_name: "Sharma Kirana", phone_key: "9876543219", origin: "api" });
    expect(await stagingTables()).toEqual([]);
  });

  it("are replaced by the file's record when its number normalizes to the same 10 digits (the same shop)", async () => {
    const id = await createThroughApi("98765 43219", "Sharma Kirana");
    await importDataset(env.DB, { customers: [upstream(id, "+91 98765-43219")] });
    const row = await env.DB.prepare("SELECT company_name, contactperson_number, phone_key, origin FROM customers WHERE id = ?")
      .bind(id)
      .first();
    expect(row).toEqual({
      company_name: "Upstream 3",
      contactperson_number: "+91 98765-43219",
      phone_key: "9876543219",
      origin: "import",
    });
    // Now an imported customer: a later file may change it like any other.
    await importDataset(env.DB, { customers: [upstream(id, "9811100003")] });
    expect((await env.DB.prepare("SELECT phone_key FROM customers WHERE id = ?").bind(id).first())?.phone_key).toBe("9811100003");
  });
});

describe("purgeLookupCache", () => {
  it("deletes every key of the namespace, over more than one page of the listing, and no other namespace's", async () => {
    const names = Array.from({ length: 25 }, (_, i) => `pincode:${String(i).padStart(6, "0")}`);
    await Promise.all(names.map((name) => env.LOOKUP_CACHE.put(name, "{}")));
    await env.KEYS.put("not-a-cache-entry", "x");
    expect(await purgeLookupCache(env.LOOKUP_CACHE, { pageSize: 10 })).toBe(25);
    expect((await env.LOOKUP_CACHE.list()).keys).toEqual([]);
    expect(await env.KEYS.get("not-a-cache-entry")).toBe("x");
  });
});
