// Cursor paging through HTTP (docs/specification.md section 4): following next_page_url seeks with the
// cursor it carries and gives the very rows of offset paging while nothing changes; rows added
// meanwhile are neither repeated nor skipped; a cursor belongs to the request that it came with.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { importDataset } from "../../src/import/importer.ts";
import { encodeCursor } from "../../src/platform/paging/cursor.ts";
import { BASE, call, type CallResult, errorEnvelope, validationEnvelope } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

interface Listed {
  id: number;
}

/** Every page of a listing, from `first` on by next_page_url: each page's ids and pagination. */
async function walk(first: string, member: string) {
  const pages: { ids: number[]; pagination: Record<string, unknown> }[] = [];
  for (let url: string | null = first; url !== null;) {
    const res: CallResult = await call(url, { key });
    expect(res.status).toBe(200);
    pages.push({ ids: res.body.data[member].map((row: Listed) => row.id), pagination: res.body.data.pagination });
    url = res.body.data.pagination.next_page_url;
  }
  return pages;
}

/** Pages 1 to n of a listing by page=N (offset paging), ids only. */
async function byPage(base: string, member: string, n: number) {
  const pages: number[][] = [];
  for (let page = 1; page <= n; page++) {
    const res = await call(`${base}&page=${page}`, { key });
    pages.push(res.body.data[member].map((row: Listed) => row.id));
  }
  return pages;
}

/** The cursor a next_page_url carries (the rest of the URL is page=N as ever). */
const cursorOf = (url: string) => new URL(url).searchParams.get("cursor")!;

describe("following next_page_url", () => {
  it.each([
    ["/api/customers?count=7", "customers", 4],
    ["/customers?count=1", "customers", 25],
    ["/api/orders?phone_number=%2B91%2098200%2000001&count=3", "orders", 4],
    ["/api/orders?phone_number=9820000001&from_date=01-01-2026&to_date=2026-03-14&count=2", "orders", 6],
    ["/api/postalcodes?count=2", "postalcodes", 3],
    ["/api/postalcodes?count=1&code=400069", "postalcodes", 2],
    ["/api/salesagents?count=1", "salesagents", 3],
  ])(
    "%s gives the rows of page=1..N, each next_page_url with a cursor and the same page number",
    async (first, member, pageCount) => {
      const pages = await walk(first, member);
      expect(pages.map((p) => p.ids)).toEqual(await byPage(first, member, pageCount));
      for (const [i, page] of pages.entries()) {
        expect(page.pagination.current_page).toBe(i + 1);
        const next = page.pagination.next_page_url as string | null;
        if (i === pages.length - 1) expect(next).toBeNull();
        else expect(next).toMatch(new RegExp(`&page=${i + 2}&cursor=[A-Za-z0-9_-]+$`));
        // The other links stay plain page links.
        for (const link of ["first_page_url", "prev_page_url", "last_page_url"]) {
          expect(String(page.pagination[link])).not.toContain("cursor=");
        }
      }
      // Up to 50 requests: more than vitest's default 5 s on a busy machine.
    },
    60_000,
  );

  it("answers a cursor page with the same body as page=N, its own next_page_url carrying the next cursor", async () => {
    const first = await call("/api/customers?count=10", { key });
    const next = first.body.data.pagination.next_page_url as string;
    const viaCursor = await call(next, { key });
    const viaPage = await call("/api/customers?count=10&page=2", { key });
    expect(viaCursor.status).toBe(200);
    expect(viaCursor.body).toEqual(viaPage.body);
    // Without page, the cursor alone says which page it is.
    const cursorOnly = await call(`/api/customers?count=10&cursor=${cursorOf(next)}`, { key });
    expect(cursorOnly.body).toEqual(viaPage.body);
  });

  it("keeps the request's parameters as given and the filters as normalized in the cursor", async () => {
    const a = await call("/api/orders?phone_number=%2B91%2098200%2000001&count=2&from_date=01-01-2026", { key });
    const b = await call("/api/orders?phone_number=9820000001&count=2&from_date=2026-01-01", { key });
    // The same listing however the number and date were written: the same cursor.
    expect(cursorOf(a.body.data.pagination.next_page_url)).toBe(cursorOf(b.body.data.pagination.next_page_url));
    // And it serves the other's request.
    const crossed = await call(
      `/api/orders?phone_number=9820000001&count=2&from_date=2026-01-01&cursor=${cursorOf(a.body.data.pagination.next_page_url)}`,
      {
        key,
      },
    );
    expect(crossed.body.data.orders.map((o: Listed) => o.id)).toEqual([103, 112]);
  });
});

describe("a cursor that does not belong to the request", () => {
  const next = async (path: string) => cursorOf((await call(path, { key })).body.data.pagination.next_page_url);

  it.each([
    ["another listing", "/api/salesagents?count=2", "/api/customers?count=2", "is for another listing"],
    ["another count", "/api/customers?count=2", "/api/customers?count=3", "is for another count"],
    [
      "another phone",
      "/api/orders?phone_number=9820000001&count=2",
      "/api/orders?phone_number=9820000002&count=2",
      "is for other filters than this request's",
    ],
    [
      "another date range",
      "/api/orders?phone_number=9820000001&count=2",
      "/api/orders?phone_number=9820000001&count=2&to_date=31-03-2026",
      "is for other filters than this request's",
    ],
    [
      "another postal code filter",
      "/api/postalcodes?count=1&code=400069",
      "/api/postalcodes?count=1",
      "is for other filters than this request's",
    ],
    ["another page", "/api/customers?count=2", "/api/customers?count=2&page=3", "leads to page 2, not page 3"],
  ])("is a 422 on cursor: %s", async (_, from, to, message) => {
    const cursor = await next(from);
    const path = new URL(to, BASE).pathname;
    const res = await call(`${to}&cursor=${cursor}`, { key });
    const description = `${message}: follow next_page_url as given`;
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", `cursor ${description}`, path, {
        fields: [{ field: "cursor", message: description }],
      }),
    );
  });

  it("is a 422 on cursor for another key's agent", async () => {
    const cursor = encodeCursor({ listing: "customers", scope: {}, count: 2, agent: 1, page: 2, after: { id: 2 } });
    const res = await call(`/api/customers?count=2&cursor=${cursor}`, { key });
    const description = "is for another sales agent: follow next_page_url as given";
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", `cursor ${description}`, "/api/customers", {
        fields: [{ field: "cursor", message: description }],
      }),
    );
  });

  it.each([
    ["garbage", "not-a-cursor"],
    ["base64 of something else", btoa("hello")],
    ["a repeated cursor", "abc&cursor=abc"],
  ])("is a 422 on cursor when it does not decode: %s", async (what, value) => {
    const res = await call(`/api/customers?cursor=${value}`, { key });
    const message =
      what === "a repeated cursor"
        ? "must be given once, as a single value"
        : "is not a cursor of this service: follow next_page_url as given";
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", `cursor ${message}`, "/api/customers", {
        fields: [{ field: "cursor", message }],
      }),
    );
  });

  it("is a 422 with skip, listed with every other broken parameter", async () => {
    const cursor = await next("/api/customers?count=2");
    const res = await call(`/api/customers?count=0&skip=2&cursor=${cursor}`, { key });
    const fields = [
      { field: "count", message: "must be an integer between 1 and 100" },
      { field: "skip", message: "cannot be combined with cursor" },
    ];
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validationEnvelope("/api/customers", fields));
  });
});

describe("rows added between two pages", () => {
  it("are neither repeated nor skipped by next_page_url, where page=N repeats one", async () => {
    const first = await call("/api/orders?phone_number=9820000001&count=5", { key });
    const firstIds = first.body.data.orders.map((o: Listed) => o.id);
    expect(firstIds).toEqual([102, 101, 103, 112, 111]);
    // A newer order arrives (an import): it sorts first, and shifts every offset by one.
    await importDataset(env.DB, {
      orders: [
        {
          id: 300,
          order_no: "SO-000300",
          customer_id: 1,
          salesagent_id: null,
          deliveryagent_id: null,
          date: "2026-03-31",
          item_total_amount: 10,
          discount_amount: 0,
          return_total_amount: 0,
          billable_amount: 10,
          items: [{ product_id: 1, quantity: 1, price: 10 }],
          statuses: [],
          invoices: [],
        },
      ],
    } as Parameters<typeof importDataset>[1]);
    const byCursor = await call(first.body.data.pagination.next_page_url, { key });
    expect(byCursor.body.data.orders.map((o: Listed) => o.id)).toEqual([110, 109, 108, 107, 106]);
    expect(byCursor.body.data.pagination.total).toBe(13);
    const byPage = await call("/api/orders?phone_number=9820000001&count=5&page=2", { key });
    expect(byPage.body.data.orders.map((o: Listed) => o.id)).toEqual([111, 110, 109, 108, 107]);
  });
});
