// The typed client (@order-lookup/client, imported by its name as an app does) against the worker:
// its fetch goes into the worker and holds every answer to the OpenAPI contract, like call().
import { createClient, type Customer, type Order, type SyncStore } from "@order-lookup/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ErrorCode } from "../src/platform/errors.ts";
import { cursorParam } from "./helpers/cursor-param.ts";
import { BASE, call, contractFetch, errorEnvelope } from "./helpers/http.ts";
import { clearIsolateCaches, makeKey } from "./helpers/api-keys.ts";
import { seedFixture } from "./helpers/seed.ts";
import { type CreateBody, createBody, createdCustomer } from "./fixtures/create-body.ts";
import { expectedSalesAgent } from "./fixtures/expected.ts";

/** A create body as query parameters: every value a string. */
const stringValues = (body: CreateBody) =>
  Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])) as { [K in keyof CreateBody]-?: string };

let key: string;
let api: ReturnType<typeof createClient>;
/** The URLs and Authorization headers that the client sent. */
let sent: { url: string; authorization: string | null }[] = [];
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
  api = createClient(BASE, key, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push({ url: request.url, authorization: request.headers.get("Authorization") });
      return contractFetch(request);
    },
  });
});
beforeEach(() => {
  clearIsolateCaches();
  sent = [];
});

describe("createClient", () => {
  it("lists customers under /api with the key, typed by the route", async () => {
    const res = await api.customers.$get({ query: { count: "2", skip: "1" } });
    expect(res.status).toBe(200);
    expect(sent).toEqual([{ url: `${BASE}/api/customers?count=2&skip=1`, authorization: `Bearer ${key}` }]);
    if (res.status !== 200) throw new Error("unreachable");
    const body = await res.json();
    expect(body).toEqual((await call("/api/customers?count=2&skip=1", { key })).body);
    expect(body.data.customers.map((c) => c.id)).toEqual([2, 3]);
    expect(body.data.customers[0]!.address).toEqual([]);
    expect(body.data.pagination).toMatchObject({ current_page: 1, per_page: 2, total: 25 });
  });

  it("pages with the cursor of next_page_url", async () => {
    const first = await api.customers.$get({ query: { count: "2" } });
    if (first.status !== 200) throw new Error(`first page answered ${first.status}`);
    const cursor = new URL((await first.json()).data.pagination.next_page_url!).searchParams.get("cursor")!;
    const second = await api.customers.$get({ query: { count: "2", page: "2", cursor } });
    expect(second.status).toBe(200);
    if (second.status !== 200) throw new Error("unreachable");
    const body = await second.json();
    expect(body).toEqual((await call("/api/customers?count=2&page=2", { key })).body);
    expect(body.data.customers.map((c) => c.id)).toEqual([3, 4]);
  });

  it("finds a customer's orders, and narrows the body by status", async () => {
    const found = await api.orders.$get({ query: { phone_number: "+91 98200 00001", count: "1" } });
    expect(found.status).toBe(200);
    if (found.status === 200) {
      const body = await found.json();
      expect(body).toEqual((await call("/api/orders?phone_number=%2B91+98200+00001&count=1", { key })).body);
      expect(body.data.orders).toHaveLength(1);
      expect(body.data.orders[0]!.customer.id).toBe(1);
      expect(body.data.pagination.next_page_url).toBe(
        `${BASE}/api/orders?count=1&phone_number=%2B91+98200+00001&page=2` +
          cursorParam("orders", { phone: "9820000001", from: null, to: null }, 1, 2, { date: "2026-03-14", id: 102 }),
      );
    }

    const missing = await api.orders.$get({ query: { phone_number: "9999999999" } });
    expect(missing.status).toBe(404);
    if (missing.status === 404) {
      expect(await missing.json()).toEqual(
        errorEnvelope(404, "NOT_FOUND", "No customer has this phone number", "/api/orders"),
      );
    }
  });

  it("reaches the lookups, the hyphenated path included", async () => {
    const agents = await api["fetch-salesagent-by-pincode"].$get({ query: { pincode: "560034" } });
    expect(agents.status).toBe(200);
    expect(await agents.json()).toEqual({
      data: [{ id: 2, first_name: "Vikram", last_name: "Shetty", mobile: "9876500002" }],
      message: "",
    });

    const areas = await api.areas.$get();
    const area = await api.area.$get();
    expect(areas.status).toBe(200);
    expect(await areas.json()).toEqual(await area.json());

    const codes = await api.postalcodes.$get({ query: { code: "400069" } });
    expect(codes.status).toBe(200);
    if (codes.status === 200)
      expect((await codes.json()).data.postalcodes).toEqual([
        { id: 1, code: "400069" },
        { id: 5, code: "400069" },
      ]);

    const salesagents = await api.salesagents.$get({ query: { count: "1" } });
    if (salesagents.status !== 200) throw new Error(`salesagents answered ${salesagents.status}`);
    expect((await salesagents.json()).data.salesagents).toEqual([expectedSalesAgent(1)]);
  });

  it("creates a customer", async () => {
    const res = await api.customers.create.$post({
      query: stringValues(
        createBody("9123400001", {
          company_name: "Client Test Traders",
          contactpersons_name: "Typed Client",
          address: "1 Hono Road",
        }),
      ),
    });
    expect(res.status).toBe(201);
    if (res.status === 201) {
      const { data } = await res.json();
      expect(data).toMatchObject({
        company_name: "Client Test Traders",
        contactperson_number: "9123400001",
        status: "Active",
      });
    }
  });

  it("creates a customer from a JSON body with an Idempotency-Key, and gets the replay", async () => {
    const json = createBody("9123400002", {
      company_name: "Json Client Traders",
      contactpersons_name: "Json Client",
      address: "2 Hono Road",
      postalcode_id: "1",
      gst_treatment: "Unregistered",
    });
    const header = { "Idempotency-Key": "typed-client-json" };
    const first = await api.customers.create.$post({ json, header });
    const again = await api.customers.create.$post({ json, header });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    if (first.status !== 201 || again.status !== 201) throw new Error("unreachable");
    const body = await first.json();
    // A new id after the fixture's 25 customers.
    expect(body.data.id).toBeGreaterThan(25);
    expect(body).toEqual({ data: createdCustomer(expect.any(Number), json) });
    expect(await again.json()).toEqual(body);
  });

  it("surfaces a read-only key's create as 403, its body typed as the error envelope", async () => {
    const { secret } = await makeKey({ name: "read-only client", scopes: ["read"] });
    const readOnly = createClient(BASE, secret, { fetch: contractFetch });
    const res = await readOnly.customers.create.$post({ json: createBody("9123400003") });
    expect(res.status).toBe(403);
    if (res.status !== 403) throw new Error("unreachable");
    // Typed by the route: the Error schema's members, the code one of its enum.
    const body = await res.json();
    const code: ErrorCode = body.error.code;
    const description: string = body.error.description;
    expect({ code, description }).toEqual({
      code: "PERMISSION_ERROR",
      description: "This API key lacks the 'write' scope, which POST /customers/create needs",
    });
    expect(body).toEqual(
      errorEnvelope(
        403,
        "PERMISSION_ERROR",
        "This API key lacks the 'write' scope, which POST /customers/create needs",
        "/api/customers/create",
      ),
    );
    // The same key reads.
    expect((await readOnly.customers.$get({ query: { count: "1" } })).status).toBe(200);
  });

  it("sends the key it was given: another key is refused", async () => {
    const stranger = createClient(`${BASE}/`, "sk_test_0000000000000000000000000000000000", { fetch: contractFetch });
    const res = await stranger.customers.$get({ query: {} });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect(await res.json()).toEqual(
      errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid API key: no such key", "/api/customers"),
    );
  });
});

// Compile-time checks of the client's types (`npm run typecheck` fails when one stops holding);
// never called.
export async function typeChecks(client: ReturnType<typeof createClient>) {
  // @ts-expect-error: no such endpoint
  await client.invoices.$get();
  // @ts-expect-error: phone_number is required
  await client.orders.$get({ query: {} });
  // @ts-expect-error: gst_treatment is Registered or Unregistered
  await client.customers.create.$post({ json: { gst_treatment: "Maybe" } });
  // @ts-expect-error: an Idempotency-Key is a string
  await client.customers.create.$post({ json: {}, header: { "Idempotency-Key": 7 } });
  const created = await client.customers.create.$post({ json: {} });
  if (created.status === 403) {
    const { error } = await created.json();
    const status: number = error.status_code;
    // @ts-expect-error: a 403's body is the error envelope, not a customer
    void (await created.json()).data;
    void status;
  }
  const res = await client.areas.$get();
  if (res.status === 200) {
    const { data } = await res.json();
    const cityId: number = data[0]!.city_id;
    // @ts-expect-error: an area has no code
    void data[0]!.code;
    return cityId;
  }
  return undefined;
}

// The store is typed per record kind (docs/api.md, "The store"); never called.
export async function storeChecks(store: SyncStore) {
  const customer: Customer | undefined = await store.get("customer", 1);
  const order: Order | undefined = await store.get("order", 101);
  // @ts-expect-error: get("customer") is a Customer, not an Order
  const wrong: Order | undefined = await store.get("customer", 1);
  // @ts-expect-error: an order is put under "order"
  if (order) await store.put("customer", order.id, order);
  // @ts-expect-error: no such kind
  await store.listIds("invoice");
  return [customer, wrong];
}
