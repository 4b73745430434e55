import { beforeAll, describe, expect, it } from "vitest";
import { cursorParam } from "./helpers/cursor.ts";
import { BASE, call, errorEnvelope } from "./helpers/http.ts";
import { makeKey } from "./helpers/keys.ts";
import { seedFixture } from "./helpers/seed.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

const PATH = `${BASE}/api/orders`;
const address1 = {
  addressline1: "Shop 4, Sai Plaza",
  addressline2: "Near Metro",
  area: {
    id: 1,
    name: "Andheri East",
    area_code: "AE",
    city: { id: 1, name: "Mumbai", code: "MUM", state: { id: 1, code: "MH", name: "Maharashtra" } },
  },
  postalcode: { id: 1, code: "400069" },
};
const orderCustomer1 = {
  id: 1,
  contact_person_name: "Sunil Mehta",
  company_name: "Mehta General Stores",
  display_name: "Mehta General Stores",
  email: "",
  contactperson_number: "+91 98200 00001",
  company_phone: null,
  gst_treatment: "Registered",
  gstin: "27AAPFU0939F1ZV",
  customer_code: "CUST-0001",
  address: address1,
};
const asha = {
  id: 1,
  first_name: "Asha",
  last_name: "Rao",
  mobile_number: "9876543210",
  avatar: null,
  email: "asha@example.com",
};
const vikram = {
  id: 2,
  first_name: "Vikram",
  last_name: "Shetty",
  mobile_number: "9876500002",
  avatar: "https://cdn.example.com/avatars/2.png",
  email: "vikram@example.com",
};
const ravi = { id: 1, first_name: "Ravi", last_name: "K", phone_number: "9123456780" };

const order102 = {
  id: 102,
  order_no: "SO-000102",
  item_total_amount: 300,
  discount_amount: 0,
  return_total_amount: 0,
  billable_amount: 300,
  date: "2026-03-14",
  products: [{ id: 1, sku: "SKU-001", name: "Tea 250g", quantity: 2, price: 150 }],
  customer: orderCustomer1,
  address: address1,
  salesagent: [],
  deliveryagent: null,
  laststatus: null,
  invoices: [],
};
const order101 = {
  id: 101,
  order_no: "SO-000101",
  item_total_amount: 1250.5,
  discount_amount: 50,
  return_total_amount: 0,
  billable_amount: 1200.5,
  date: "2026-03-14",
  products: [
    { id: 3, sku: "SKU-003", name: "Glucose Biscuits 100g", quantity: 10, price: 25 },
    { id: 1, sku: "SKU-001", name: "Tea 250g", quantity: 5, price: 150.1 },
    { id: 2, sku: "SKU-002", name: "Sugar 1kg", quantity: 2, price: 124.5 },
  ],
  customer: orderCustomer1,
  address: address1,
  salesagent: asha,
  deliveryagent: ravi,
  laststatus: { name: "Processed" },
  invoices: [
    {
      id: 201,
      invoice_number: "INV-000201",
      date: "2026-03-15",
      due_date: "2026-04-14",
      total_amount: 1000.5,
      discount_amount: 50,
      returned_amount: 0,
      invoice_amount: 950.5,
      cgst: 42.77,
      sgst: 42.77,
      igst: 0,
    },
    {
      id: 202,
      invoice_number: "INV-000202",
      date: "2026-03-16",
      due_date: "2026-04-15",
      total_amount: 250,
      discount_amount: 0,
      returned_amount: 0,
      invoice_amount: 250,
      cgst: 11.25,
      sgst: 11.25,
      igst: 0,
    },
  ],
};
const order103 = {
  id: 103,
  order_no: "SO-000103",
  item_total_amount: 500,
  discount_amount: 0,
  return_total_amount: 100,
  billable_amount: 400,
  date: "2026-02-01",
  products: [{ id: 2, sku: "SKU-002", name: "Sugar 1kg", quantity: 4, price: 125 }],
  customer: orderCustomer1,
  address: address1,
  salesagent: asha,
  deliveryagent: ravi,
  laststatus: { name: "Returned" },
  invoices: [],
};
/** Orders 104 to 112 of the fixture, written out from the same pattern. */
function older(id: number) {
  const i = id - 104;
  return {
    id,
    order_no: `SO-000${id}`,
    item_total_amount: 100 + i,
    discount_amount: 0,
    return_total_amount: 0,
    billable_amount: 100 + i,
    date: `2026-01-${String(10 + i).padStart(2, "0")}`,
    products: [{ id: 2, sku: "SKU-002", name: "Sugar 1kg", quantity: 1, price: 100 + i }],
    customer: orderCustomer1,
    address: address1,
    salesagent: vikram,
    deliveryagent: null,
    laststatus: { name: "Delivered" },
    invoices: [],
  };
}

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
  const url = (n: number) => `${PATH}?${query}${query ? "&" : ""}page=${n}`;
  const cursor = next ? cursorParam("orders", next.scope, perPage, current + 1, next.after) : "";
  return {
    current_page: current,
    first_page_url: url(1),
    prev_page_url: current > 1 ? url(current - 1) : null,
    next_page_url: current < last ? `${url(current + 1)}${cursor}` : null,
    last_page_url: url(last),
    last_page: last,
    per_page: perPage,
    total,
    path: PATH,
  };
}

describe("GET /orders", () => {
  it("serves a customer's orders newest first (date, then id), each with everything it carries", async () => {
    const res = await call("/api/orders?phone_number=9820000001", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        orders: [order102, order101, order103, older(112), older(111), older(110), older(109), older(108), older(107), older(106)],
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
    const customer2 = {
      id: 2,
      contact_person_name: "Farah Khan",
      company_name: "Khan Provisions",
      display_name: "Khan Provisions",
      email: null,
      contactperson_number: "098200 00002",
      company_phone: "022-2345 6789",
      gst_treatment: "Unregistered",
      gstin: "",
      customer_code: null,
      address: [],
    };
    expect(res.body).toEqual({
      data: {
        orders: [
          {
            id: 150,
            order_no: "SO-000150",
            item_total_amount: 99.99,
            discount_amount: 0,
            return_total_amount: 0,
            billable_amount: 99.99,
            date: "2026-03-10",
            products: [{ id: 3, sku: "SKU-003", name: "Glucose Biscuits 100g", quantity: 1, price: 99.99 }],
            customer: customer2,
            address: [],
            salesagent: vikram,
            deliveryagent: null,
            laststatus: { name: "Invoice Generated" },
            invoices: [],
          },
        ],
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

  it.each([
    ["", [{ field: "phone_number", message: "is required" }]],
    ["phone_number=12345", [{ field: "phone_number", message: "must be a 10-digit phone number (a +91 or 0 prefix is allowed)" }]],
    ["phone_number=98200000011", [{ field: "phone_number", message: "must be a 10-digit phone number (a +91 or 0 prefix is allowed)" }]],
    ["phone_number=98200abcde", [{ field: "phone_number", message: "must be a 10-digit phone number (a +91 or 0 prefix is allowed)" }]],
    [
      "phone_number=9820000001&from_date=31-02-2026",
      [{ field: "from_date", message: "must be a real date written dd-mm-yyyy (or yyyy-mm-dd)" }],
    ],
    [
      "phone_number=9820000001&to_date=2026%2F03%2F14",
      [{ field: "to_date", message: "must be a real date written dd-mm-yyyy (or yyyy-mm-dd)" }],
    ],
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
    const res = await call(`/api/orders?${query}`, { key });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", fields.map((f) => `${f.field} ${f.message}`).join("; "), "/api/orders", { fields }),
    );
  });
});
