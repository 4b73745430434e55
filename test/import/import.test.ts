// The importer on the real local D1, through its platform-neutral API: a valid dataset and what it
// writes. Rejected imports are in import.rejects.test.ts, customers made through the API in
// import.api-customers.test.ts.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { importDataset, type Dataset } from "../../src/import/importer.ts";
import { purgeLookupCache } from "../../src/lookups/lookups.cache-purge.ts";
import { base, emptyTables, order, snapshot, stagingTables } from "./import.helpers.ts";

beforeEach(emptyTables);

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
    // Customer rows are the file's records without the address, with the phone key and origin.
    const [mehta, khan] = base().customers!.map(({ address: _address, ...row }) => ({ ...row, origin: "import" }));
    expect(db.customers).toEqual([
      { ...mehta, phone_key: "9820000001" },
      { ...khan, phone_key: "2223456789" }, // a landline: kept, and normalized like any number
    ]);
    expect(db.customer_addresses).toEqual([
      { customer_id: 1, addressline1: "Shop 4, Sai Plaza", addressline2: "", area_id: 1, postalcode_id: 1 },
    ]);
    // Order rows are the file's records without their lists; invoices carry their order's id.
    expect(db.orders).toEqual(
      base().orders!.map(({ items: _items, statuses: _statuses, invoices: _invoices, ...row }) => row),
    );
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
    expect(db.invoices).toEqual(order(1).invoices!.map((invoice) => ({ ...invoice, order_id: 1 })));
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
        order(2, {
          customer_id: 2,
          order_no: "SO-1",
          invoices: [{ ...order(1).invoices![0]!, id: 20, invoice_number: "INV-1" }],
        }),
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
    const {
      email: _e,
      company_phone: _p,
      gstin: _g,
      customer_code: _c,
      address: _a,
      salesagent_id: _s,
      ...bare
    } = data.customers![1]!;
    data.customers![1] = bare;
    const { area_code: _ac, ...area } = data.areas![0]!;
    data.areas![0] = area;
    data.customers![0]!.address = [];
    const { statuses: _st, invoices: _in, deliveryagent_id: _d, ...orderBare } = data.orders![1]!;
    data.orders![1] = orderBare;
    await importDataset(env.DB, data);
    const db = await snapshot();
    expect(db.customers![1]).toMatchObject({
      email: null,
      company_phone: null,
      gstin: null,
      customer_code: null,
      salesagent_id: null,
    });
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
