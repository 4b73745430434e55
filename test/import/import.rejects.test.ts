// The importer's failure modes on the real local D1: a bad record rejects the whole import, names the
// record and the field, and changes nothing.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  importDataset,
  importRecords,
  type Dataset,
  type OrderRecord,
  type RawRecord,
} from "../../src/import/importer.ts";
import { base, emptyTables, expectRejected, order, orderAt, rejects } from "./import.helpers.ts";

beforeEach(emptyTables);

describe("a bad record rejects the whole import and changes nothing", () => {
  // Each import below is tried on top of the base dataset, so "changes nothing" is tested against real rows.
  beforeEach(async () => {
    await importDataset(env.DB, base());
  });

  it("names a missing field", async () => {
    const data = base();
    delete (data.customers![1] as Partial<(typeof data.customers & {})[number]>).company_name;
    const e = await rejects(data, {
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
    await rejects(data, { type: "product", where: "products[1]", field: "id", problem: "missing" });
  });

  it.each([
    [
      "a string quantity",
      { items: [{ product_id: 1, quantity: "5", price: 1 }] },
      "items[0].quantity",
      "must be an integer",
    ],
    [
      "a fractional quantity",
      { items: [{ product_id: 1, quantity: 1.5, price: 1 }] },
      "items[0].quantity",
      "must be an integer",
    ],
    ["a string amount", { billable_amount: "1200.50" }, "billable_amount", "must be a number"],
    ["a numeric order_no", { order_no: 7 }, "order_no", "must be a string"],
    ["items that are not an array", { items: {} }, "items", "must be an array"],
    ["an item that is not an object", { items: [5] }, "items[0]", "must be an object"],
    ["a null customer", { customer_id: null }, "customer_id", "must be an integer"],
  ])("names a field of the wrong type: %s", async (_name, overrides, field, problem) => {
    const data = base();
    data.orders![1] = { ...data.orders![1]!, ...(overrides as unknown as Partial<OrderRecord>) };
    await rejects(data, { type: "order", id: 2, where: "orders[1]", field, problem });
  });

  it("rejects a record that is not an object", async () => {
    const data = base();
    (data.states as unknown[]).push("Goa");
    await rejects(data, { type: "state", where: "states[1]", problem: "must be a JSON object" });
  });

  it.each([
    [
      "an order's customer",
      "orders",
      { customer_id: 99 },
      "customer_id",
      "no customer 99 earlier in the file or in the database",
    ],
    [
      "an item's product",
      "orders",
      { items: [{ product_id: 7, quantity: 1, price: 1 }] },
      "items[0].product_id",
      /no product 7/,
    ],
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
    await rejects(data, { type, id: 2, where: `${member}[1]`, field, problem });
  });

  it("names a broken reference in a sales agent's pincodes and a city's state", async () => {
    const data = base();
    data.sales_agents![0]!.postalcode_ids = [1, 9];
    await rejects(data, {
      type: "sales_agent",
      id: 1,
      where: "sales_agents[0]",
      field: "postalcode_ids[1]",
      problem: /no postal_code 9/,
    });
    await rejects(
      { cities: [{ id: 5, name: "X", code: "X", state_id: 3 }] },
      {
        type: "city",
        id: 5,
        where: "cities[0]",
        field: "state_id",
        problem: /no state 3/,
      },
    );
  });

  it("names a duplicate id in the file, of a record or of an invoice", async () => {
    const data = base();
    data.customers!.push({ ...data.customers![0]!, contactperson_number: "9000000000" });
    await rejects(data, {
      type: "customer",
      id: 1,
      where: "customers[2]",
      field: "id",
      problem: "another customer in the file has id 1",
    });
    const twice = base();
    twice.orders![1]!.invoices = [{ ...order(1).invoices![0]!, invoice_number: "INV-other" }];
    await rejects(twice, orderAt(2, 1, "invoices[0].id", "another invoice in the file has id 10"));
  });

  it("names two customers of the file whose numbers normalize alike, with both ids", async () => {
    const data = base();
    data.customers![1]!.contactperson_number = "098200-00001";
    const e = await rejects(data, { type: "customer", id: 2, where: "customers[1]", field: "contactperson_number" });
    expect(e.message).toBe(
      "customer 2 at customers[1], field contactperson_number: normalizes to 9820000001, as the number of customer 1 does",
    );
  });

  it("names a customer whose number normalizes like that of another customer in the database", async () => {
    const data: Dataset = { customers: [{ ...base().customers![1]!, id: 3, contactperson_number: "919820000001" }] };
    const e = await rejects(data, { type: "customer", id: 3, where: "customers[0]", field: "contactperson_number" });
    expect(e.problem).toBe("normalizes to 9820000001, as the number of customer 1 does in the database");
  });

  it("names a duplicate order_no, in the file or against the database", async () => {
    const data = base();
    data.orders![1]!.order_no = "SO-1";
    await rejects(data, orderAt(2, 1, "order_no", '"SO-1" is also the order_no of order 1'));
    await rejects(
      { orders: [order(3, { order_no: "SO-2" })] },
      orderAt(3, 0, "order_no", '"SO-2" is also the order_no of order 2 in the database'),
    );
  });

  it("names a duplicate invoice_number, in the file or against the database", async () => {
    const data = base();
    data.orders![1]!.invoices = [{ ...order(1).invoices![0]!, id: 11 }];
    await rejects(
      data,
      orderAt(2, 1, "invoices[0].invoice_number", '"INV-1" is also the invoice_number of invoice 10'),
    );
    const other = order(3);
    other.invoices = [order(3).invoices![0]!, { ...order(3).invoices![0]!, id: 31, invoice_number: "INV-1" }];
    await rejects(
      { orders: [other] },
      orderAt(3, 0, "invoices[1].invoice_number", '"INV-1" is also the invoice_number of invoice 10 in the database'),
    );
  });

  it.each([
    [
      "an order date that does not exist",
      { date: "2026-02-30" },
      "date",
      'must be a date yyyy-mm-dd, got "2026-02-30"',
    ],
    ["an order date in another format", { date: "14-03-2026" }, "date", /must be a date yyyy-mm-dd/],
    [
      "an invoice due date",
      { invoices: [{ ...order(2).invoices![0]!, due_date: "2026-13-01" }] },
      "invoices[0].due_date",
      /must be a date yyyy-mm-dd/,
    ],
    ["a status time", { statuses: [{ name: "Placed", at: "yesterday" }] }, "statuses[0].at", /must be a date-time/],
    [
      "a status time of a day that does not exist",
      { statuses: [{ name: "Placed", at: "2026-02-30T10:00:00Z" }] },
      "statuses[0].at",
      /must be a date-time/,
    ],
  ] as const)("names a bad date: %s", async (_name, overrides, field, problem) => {
    const data = base();
    data.orders![1] = { ...data.orders![1]!, ...(overrides as Partial<OrderRecord>) };
    await rejects(data, { type: "order", id: 2, where: "orders[1]", field, problem });
  });

  it("names an unknown status name", async () => {
    const data = base();
    data.orders![0]!.statuses = [
      { name: "Placed", at: "2026-03-14T09:30:00Z" },
      { name: "Shipped" as "Placed", at: "2026-03-14T10:30:00Z" },
    ];
    await rejects(
      data,
      orderAt(1, 0, "statuses[1].name", /^must be one of Placed, Processed, .*Postponed; got "Shipped"$/),
    );
  });

  it("rejects an unknown member of the dataset", async () => {
    await rejects({ ...base(), shipments: [] } as Dataset, { where: "shipments", problem: /^unknown member/ });
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
    await rejects(data, orderAt(6000, 5999, "items[0].price", "must be a number"));
  });

  it("rejects a duplicate found only after the whole file was staged", async () => {
    const data = base();
    data.orders = Array.from({ length: 6000 }, (_, i) => order(i + 1));
    data.orders[5999]!.order_no = "SO-17";
    await rejects(data, orderAt(6000, 5999, "order_no", '"SO-17" is also the order_no of order 17'));
  });
});
