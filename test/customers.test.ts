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

const andheri = {
  id: 1,
  name: "Andheri East",
  area_code: "AE",
  city: { id: 1, name: "Mumbai", code: "MUM", state: { id: 1, code: "MH", name: "Maharashtra" } },
};
const bandra = { ...andheri, id: 3, name: "Bandra West", area_code: "BW" };

const customer1 = {
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
  status: "Active",
  approval: "accepted",
  address: {
    addressline1: "Shop 4, Sai Plaza",
    addressline2: "Near Metro",
    area: andheri,
    postalcode: { id: 1, code: "400069" },
  },
};
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
  status: "Active",
  approval: "accepted",
  address: [],
};
const customer3 = {
  id: 3,
  contact_person_name: "Lakshmi N",
  company_name: "Lakshmi Traders",
  display_name: "Lakshmi Traders (Koramangala)",
  email: "lakshmi@example.com",
  contactperson_number: "9820000003",
  company_phone: null,
  gst_treatment: "Unregistered",
  gstin: null,
  customer_code: "CUST-0003",
  status: "Inactive",
  approval: "pending",
  address: {
    addressline1: "12, 5th Cross",
    addressline2: "",
    area: {
      id: 2,
      name: "Koramangala",
      area_code: "",
      city: { id: 2, name: "Bengaluru", code: "BLR", state: { id: 2, code: "KA", name: "Karnataka" } },
    },
    postalcode: { id: 2, code: "560034" },
  },
};
/** Customers 4 to 25 of the fixture, written out from the same pattern. */
function padding(id: number) {
  return {
    id,
    contact_person_name: `Contact ${id}`,
    company_name: `Company ${id}`,
    display_name: `Company ${id}`,
    email: `c${id}@example.com`,
    contactperson_number: `97000000${String(id).padStart(2, "0")}`,
    company_phone: null,
    gst_treatment: "Unregistered",
    gstin: "",
    customer_code: null,
    status: "Active",
    approval: "accepted",
    address: { addressline1: `${id} Main Road`, addressline2: "", area: bandra, postalcode: { id: 3, code: "400050" } },
  };
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const PATH = `${BASE}/api/customers`;
/** The cursor of a customers next_page_url: to page `page` (of `count`), after customer `id`. */
const cursor = (count: number, page: number, id: number) => cursorParam("customers", {}, count, page, { id });

describe("GET /customers", () => {
  it("serves the first page of ten by id with the full address group, [] for none, values as stored", async () => {
    const res = await call("/api/customers", { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.body).toEqual({
      data: {
        customers: [customer1, customer2, customer3, ...range(4, 10).map(padding)],
        pagination: {
          current_page: 1,
          first_page_url: `${PATH}?page=1`,
          prev_page_url: null,
          next_page_url: `${PATH}?page=2${cursor(10, 2, 10)}`,
          last_page_url: `${PATH}?page=3`,
          last_page: 3,
          per_page: 10,
          total: 25,
          path: PATH,
        },
      },
    });
  });

  it("follows next_page_url to the last page, carrying count", async () => {
    const first = await call(`/api/customers?count=10&page=2`, { key });
    expect(first.body.data.customers.map((c: { id: number }) => c.id)).toEqual(range(11, 20));
    const last = await call(first.body.data.pagination.next_page_url, { key });
    expect(last.status).toBe(200);
    expect(last.body).toEqual({
      data: {
        customers: range(21, 25).map(padding),
        pagination: {
          current_page: 3,
          first_page_url: `${PATH}?count=10&page=1`,
          prev_page_url: `${PATH}?count=10&page=2`,
          next_page_url: null,
          last_page_url: `${PATH}?count=10&page=3`,
          last_page: 3,
          per_page: 10,
          total: 25,
          path: PATH,
        },
      },
    });
  });

  it("pages by skip: current_page is floor(skip / count) + 1", async () => {
    const res = await call(`/api/customers?count=7&skip=10`, { key });
    expect(res.body.data.customers.map((c: { id: number }) => c.id)).toEqual(range(11, 17));
    expect(res.body.data.pagination).toEqual({
      current_page: 2,
      first_page_url: `${PATH}?count=7&page=1`,
      prev_page_url: `${PATH}?count=7&page=1`,
      // Page 3 of 7 starts after customer 14, inside this page (rows 11 to 17): as offset paging has it.
      next_page_url: `${PATH}?count=7&page=3${cursor(7, 3, 14)}`,
      last_page_url: `${PATH}?count=7&page=4`,
      last_page: 4,
      per_page: 7,
      total: 25,
      path: PATH,
    });
  });

  it("answers a page past the end with an empty list and the same pagination", async () => {
    const res = await call(`/api/customers?page=9`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        customers: [],
        pagination: {
          current_page: 9,
          first_page_url: `${PATH}?page=1`,
          prev_page_url: `${PATH}?page=8`,
          next_page_url: null,
          last_page_url: `${PATH}?page=3`,
          last_page: 3,
          per_page: 10,
          total: 25,
          path: PATH,
        },
      },
    });
  });

  it("serves count=100 and count=1 (the bounds)", async () => {
    const all = await call(`/api/customers?count=100`, { key });
    expect(all.body.data.customers.map((c: { id: number }) => c.id)).toEqual(range(1, 25));
    expect(all.body.data.pagination.last_page).toBe(1);
    expect(all.body.data.pagination.next_page_url).toBeNull();
    const one = await call(`/api/customers?count=1&skip=24`, { key });
    expect(one.body.data.customers).toEqual([padding(25)]);
    expect(one.body.data.pagination.current_page).toBe(25);
    expect(one.body.data.pagination.last_page).toBe(25);
  });

  it("is the same endpoint at the root, with its own path in the URLs", async () => {
    const res = await call(`/customers?count=2`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.customers).toEqual([customer1, customer2]);
    expect(res.body.data.pagination.path).toBe(`${BASE}/customers`);
    expect(res.body.data.pagination.next_page_url).toBe(`${BASE}/customers?count=2&page=2${cursor(2, 2, 2)}`);
  });

  it.each([
    ["count=0", [{ field: "count", message: "must be an integer between 1 and 100" }]],
    ["count=101", [{ field: "count", message: "must be an integer between 1 and 100" }]],
    ["count=abc", [{ field: "count", message: "must be an integer between 1 and 100" }]],
    ["count=1.5", [{ field: "count", message: "must be an integer between 1 and 100" }]],
    ["count=", [{ field: "count", message: "must be an integer between 1 and 100" }]],
    ["count=%2010", [{ field: "count", message: "must be an integer between 1 and 100" }]],
    ["count=1&count=2", [{ field: "count", message: "must be given once, as a single value" }]],
    ["skip=-1", [{ field: "skip", message: "must be an integer between 0 and 999999999999999" }]],
    ["skip=99999999999999999999", [{ field: "skip", message: "must be an integer between 0 and 999999999999999" }]],
    ["page=0", [{ field: "page", message: "must be an integer between 1 and 999999999999999" }]],
    ["skip=10&page=2", [{ field: "page", message: "cannot be combined with skip" }]],
    [
      "count=0&skip=x&page=0",
      [
        { field: "count", message: "must be an integer between 1 and 100" },
        { field: "skip", message: "must be an integer between 0 and 999999999999999" },
        { field: "page", message: "must be an integer between 1 and 999999999999999" },
      ],
    ],
  ])("rejects %s with 422 naming every broken parameter", async (query, fields) => {
    const res = await call(`/api/customers?${query}`, { key });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", fields.map((f) => `${f.field} ${f.message}`).join("; "), "/api/customers", {
        fields,
      }),
    );
  });

  it("ignores unknown parameters", async () => {
    const res = await call(`/api/customers?count=1&colour=blue`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.customers).toEqual([customer1]);
    expect(res.body.data.pagination.next_page_url).toBe(`${PATH}?count=1&page=2${cursor(1, 2, 1)}`);
  });
});
