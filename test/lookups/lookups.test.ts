import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cursorParam } from "../helpers/cursor-param.ts";
import { BASE, call, errorEnvelope } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { expectedPostalCode, expectedSalesAgent } from "../fixtures/expected.ts";
import { expectedPagination } from "../fixtures/expected-pagination.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});
beforeEach(() => clearIsolateCaches());

/** The pagination of `?count=2` at page `current` of `last`. */
const pageOfTwo = (path: string, current: number, last: number, total: number, cursor: string) =>
  expectedPagination(path, { query: "count=2", current, last, total, perPage: 2, cursor });

const PINCODE_RULE = "must be a 6-digit PIN code that does not start with 0";

describe("GET /fetch-salesagent-by-pincode", () => {
  it("lists each agent serving the pincode once, by id, even when the pincode has two ids", async () => {
    const res = await call("/api/fetch-salesagent-by-pincode?pincode=400069", { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(res.headers.get("ETag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.body).toEqual({
      data: [
        { id: 1, first_name: "Asha", last_name: "Rao", mobile: "9876543210" },
        { id: 3, first_name: "Meena", last_name: "Iyer", mobile: "9876500003" },
      ],
      message: "",
    });
  });

  it("answers 200 with no agents and a message for a pincode nobody serves, known or not", async () => {
    for (const pincode of ["110001", "999999"]) {
      const res = await call(`/fetch-salesagent-by-pincode?pincode=${pincode}`, { key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], message: `No sales agent serves pincode ${pincode}` });
    }
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await call("/api/fetch-salesagent-by-pincode?pincode=560034", { key });
    const etag = first.headers.get("ETag")!;
    const again = await call("/api/fetch-salesagent-by-pincode?pincode=560034", {
      key,
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    const other = await call("/api/fetch-salesagent-by-pincode?pincode=560034", {
      key,
      headers: { "If-None-Match": '"something-else"' },
    });
    expect(other.status).toBe(200);
  });

  it.each([
    ["", "is required"],
    ["pincode=012345", PINCODE_RULE],
    ["pincode=40006", PINCODE_RULE],
    ["pincode=4000690", PINCODE_RULE],
    ["pincode=40006a", PINCODE_RULE],
    ["pincode=%20400069", PINCODE_RULE],
    ["pincode=400069&pincode=400050", "must be given once, as a single value"],
  ])("rejects ?%s with 422", async (query, message) => {
    const res = await call(`/api/fetch-salesagent-by-pincode?${query}`, { key });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", `pincode ${message}`, "/api/fetch-salesagent-by-pincode", {
        fields: [{ field: "pincode", message }],
      }),
    );
  });
});

describe("GET /area and /areas", () => {
  const areas = {
    data: [
      { id: 1, name: "Andheri East", city_id: 1 },
      { id: 2, name: "Koramangala", city_id: 2 },
      { id: 3, name: "Bandra West", city_id: 1 },
    ],
  };

  it.each(["/api/area", "/api/areas", "/area", "/areas"])("%s lists every area by id", async (path) => {
    const res = await call(path, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(areas);
  });

  it("serves the cached answer byte for byte, with the same ETag", async () => {
    const uncached = await call("/api/area", { key });
    const cached = await call("/api/areas", { key });
    expect(cached.text).toBe(uncached.text);
    expect(cached.headers.get("ETag")).toBe(uncached.headers.get("ETag"));
  });
});

describe("GET /postalcodes", () => {
  const PATH = `${BASE}/api/postalcodes`;
  it("pages postal codes by id", async () => {
    const res = await call("/api/postalcodes?count=2&page=2", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        postalcodes: [expectedPostalCode(3), expectedPostalCode(4)],
        pagination: pageOfTwo(PATH, 2, 3, 5, cursorParam("postalcodes", { code: null }, 2, 3, { id: 4 })),
      },
    });
  });

  it("filters by code", async () => {
    const res = await call("/api/postalcodes?code=400069", { key });
    expect(res.body).toEqual({
      data: {
        postalcodes: [expectedPostalCode(1), expectedPostalCode(5)],
        pagination: expectedPagination(PATH, { query: "code=400069", current: 1, last: 1, total: 2 }),
      },
    });
  });

  it("rejects a malformed code and bad paging together", async () => {
    const res = await call("/api/postalcodes?code=12&count=0", { key });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(
        422,
        "VALIDATION_ERROR",
        `code ${PINCODE_RULE}; count must be an integer between 1 and 100`,
        "/api/postalcodes",
        {
          fields: [
            { field: "code", message: PINCODE_RULE },
            { field: "count", message: "must be an integer between 1 and 100" },
          ],
        },
      ),
    );
  });
});

describe("GET /salesagents", () => {
  it("pages sales agents by id with their contact fields", async () => {
    const PATH = `${BASE}/salesagents`;
    const res = await call("/salesagents?count=2", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        salesagents: [expectedSalesAgent(1), expectedSalesAgent(2)],
        pagination: pageOfTwo(PATH, 1, 2, 3, cursorParam("salesagents", {}, 2, 2, { id: 2 })),
      },
    });
  });
});
