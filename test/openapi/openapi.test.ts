import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Exchange } from "../helpers/contract.ts";
import { BASE, call, expectErrorAnswer, loadContract, statusAndHeaders } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";

const API_PATHS = [
  "/api/customers",
  "/api/customers/create",
  "/api/orders",
  "/api/sync",
  "/api/fetch-salesagent-by-pincode",
  "/api/area",
  "/api/areas",
  "/api/postalcodes",
  "/api/salesagents",
  "/api/keys/rotate",
  "/api/enroll",
];

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});
beforeEach(() => clearIsolateCaches());

describe("GET /openapi.json", () => {
  it("answers without a key: an OpenAPI 3.1 document of the nine API paths and enrollment's exchange, each once", async () => {
    const res = await call("/openapi.json");
    expect(res.body.openapi).toBe("3.1.0");
    expect(statusAndHeaders(res, "Content-Type", "Cache-Control")).toEqual({
      status: 200,
      "Content-Type": "application/json",
      "Cache-Control": "no-cache",
    });
    expect(res.body.info).toEqual({
      title: "Order and customer lookup API",
      version: "0.1.0",
      description: expect.stringContaining(
        "Every endpoint but `/api/enroll` (whose enrollment code is its\ncredential) takes `Authorization: Bearer <API key>`",
      ),
      contact: { name: "API team", url: "https://api-team.example.com", email: "api-team@example.com" },
      license: { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" },
    });
    expect(res.body.servers).toEqual([{ url: BASE, description: "This deployment" }]);
    expect(Object.keys(res.body.paths).sort()).toEqual([...API_PATHS].sort());
  });

  it("names this deployment as the server, whatever host it is called by", async () => {
    const res = await call("https://orders.example.in/openapi.json");
    expect(res.body.servers).toEqual([{ url: "https://orders.example.in", description: "This deployment" }]);
  });

  it("declares the bearer scheme and puts every operation behind it but enrollment's exchange", async () => {
    const { body } = await call("/openapi.json");
    expect(body.components.securitySchemes).toEqual({
      bearerAuth: { type: "http", scheme: "bearer", description: expect.stringContaining("sk_test_") },
    });
    for (const [path, item] of Object.entries<
      Record<string, { security?: unknown; responses: Record<string, unknown> }>
    >(body.paths)) {
      if (path === "/api/enroll") continue;
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(["401", "429", "500", "503"]),
        );
      }
    }
    const enroll = body.paths["/api/enroll"];
    expect(Object.keys(enroll)).toEqual(["post"]);
    expect(enroll.post.security).toEqual([]);
    expect(Object.keys(enroll.post.responses)).toEqual(["200", "201", "400", "401", "413", "422", "429", "500", "503"]);
  });

  it("names the two paths it leaves out, a monitor's check and a camera's hop, in its description", async () => {
    const { body } = await call("/openapi.json");
    expect(body.info.description).toContain(
      "**Outside this document.** Two paths that no API client calls are left out, each said here instead: `GET /healthz`\n(a monitor's check:",
    );
    expect(body.info.description).toContain(
      "`GET /enroll` (what a phone's camera opens from an enrollment\nQR code: 303",
    );
    expect(Object.keys(body.components.schemas)).not.toContain("Health");
    // Left out of the document, still served.
    expect((await call("/api/healthz")).status).toBe(200);
    const hop = await call("/enroll", { redirect: "manual" });
    expect(statusAndHeaders(hop, "Location")).toEqual({ status: 303, Location: "/app/enroll" });
  });

  it("gives every operation the operationId that generated clients name their methods after", async () => {
    const { body } = await call("/openapi.json");
    const ids = Object.entries<Record<string, { operationId?: string }>>(body.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => `${method} ${path} ${operation.operationId}`),
    );
    expect(ids.sort()).toEqual([
      "get /api/area listAreas",
      "get /api/areas listAreasAlias",
      "get /api/customers listCustomers",
      "get /api/fetch-salesagent-by-pincode listSalesAgentsByPincode",
      "get /api/orders listOrders",
      "get /api/postalcodes listPostalCodes",
      "get /api/salesagents listSalesAgents",
      "get /api/sync syncBook",
      "post /api/customers/create createCustomer",
      "post /api/enroll exchangeEnrollmentCode",
      "post /api/keys/rotate rotateKey",
    ]);
  });

  it("documents the answers a route can really give, with their headers", async () => {
    const { body } = await call("/openapi.json");
    const statuses = (path: string, method = "get") => Object.keys(body.paths[path][method].responses);
    expect(statuses("/api/orders")).toEqual(["200", "401", "403", "404", "422", "429", "500", "503"]);
    expect(statuses("/api/sync")).toEqual(["200", "304", "401", "403", "410", "422", "429", "500", "503"]);
    expect(statuses("/api/area")).toEqual(["200", "304", "401", "403", "429", "500", "503"]);
    expect(statuses("/api/fetch-salesagent-by-pincode")).toEqual([
      "200",
      "304",
      "401",
      "403",
      "422",
      "429",
      "500",
      "503",
    ]);
    // Every API route documents the 403 of a key without its scope, with an example naming it.
    for (const [path, methods] of Object.entries(
      body.paths as Record<string, Record<string, { responses: Record<string, any> }>>,
    )) {
      // POST /keys/rotate takes a key of any scope (docs/specification.md section 9), and /enroll none: neither has a 403.
      if (path.endsWith("/healthz") || path.endsWith("/keys/rotate") || path.endsWith("/enroll")) continue;
      for (const [method, operation] of Object.entries(methods)) {
        const scope = method === "get" ? "read" : "write";
        const endpoint = `${method.toUpperCase()} ${path.replace(/^\/api/, "")}`;
        expect({ path, method, forbidden: operation.responses["403"] }).toEqual({
          path,
          method,
          forbidden: {
            description: `The API key lacks the '${scope}' scope, which this endpoint needs`,
            headers: {
              "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
              "Server-Timing": { $ref: "#/components/headers/Server-Timing" },
              "Key-Rotation": { $ref: "#/components/headers/Key-Rotation" },
            },
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Error" },
                example: {
                  error: {
                    code: "PERMISSION_ERROR",
                    description: `This API key lacks the '${scope}' scope, which ${endpoint} needs`,
                    source: `${BASE}${path}`,
                    status_code: 403,
                  },
                },
              },
            },
          },
        });
      }
    }
    const areas = body.paths["/api/areas"].get.responses;
    expect(areas["200"].headers).toEqual({
      "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
      "Server-Timing": { $ref: "#/components/headers/Server-Timing" },
      ETag: { $ref: "#/components/headers/ETag" },
      "Cache-Control": expect.objectContaining({ required: true }),
      "Key-Rotation": { $ref: "#/components/headers/Key-Rotation" },
    });
    expect(areas["401"].headers["Key-Rotation"]).toBeUndefined();
    expect(areas["401"].headers["WWW-Authenticate"]).toEqual({ $ref: "#/components/headers/WWW-Authenticate" });
    expect(areas["429"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
    expect(areas["503"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
    // The answers that no operation owns sit in an extension, not in components (see src/openapi/openapi.document.ts).
    expect(body.components.responses).toBeUndefined();
    expect(Object.keys(body["x-any-path-responses"])).toEqual(["404", "405"]);
    expect(body["x-any-path-responses"]["405"].headers.Allow).toMatchObject({ required: true });
  });
});

describe("GET /docs", () => {
  it("answers without a key with a page that loads nothing from another host", async () => {
    const res = await call("/docs");
    expect(statusAndHeaders(res, "Content-Type")).toEqual({ status: 200, "Content-Type": "text/html; charset=UTF-8" });
    expect(res.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(res.text).not.toMatch(/https?:|\/\/[a-z]/i);
    const references = [...res.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(references).toEqual([
      "data:,",
      "/docs/swagger-ui.css",
      "/docs/theme.css",
      "/openapi.json",
      "/docs/swagger-ui-bundle.js",
      "/docs/init.js",
    ]);
  });

  it("serves the page's script and stylesheet from the installed package", async () => {
    const js = await call("/docs/swagger-ui-bundle.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("Content-Type")).toMatch(/^(text|application)\/javascript/);
    expect(js.text).toContain("SwaggerUIBundle");
    const css = await call("/docs/swagger-ui.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("Content-Type")).toMatch(/^text\/css/);
    expect(css.text).toContain(".swagger-ui");
  });

  it("serves its own stylesheet after Swagger UI's, with colours that meet WCAG AA contrast", async () => {
    const res = await call("/docs/theme.css");
    expect(statusAndHeaders(res, "Content-Type")).toEqual({ status: 200, "Content-Type": "text/css; charset=utf-8" });
    expect(res.text).toContain(".swagger-ui .opblock.opblock-get .opblock-summary-method");
    expect(res.text).not.toMatch(/https?:|@import|url\(/);
  });

  it("starts Swagger UI on /openapi.json with the outside validator off", async () => {
    const res = await call("/docs/init.js");
    expect(statusAndHeaders(res, "Content-Type")).toEqual({
      status: 200,
      "Content-Type": "text/javascript; charset=utf-8",
    });
    expect(res.text).toContain('url: "/openapi.json"');
    expect(res.text).toContain("validatorUrl: null");
    expect(res.text).toContain("plugins: [accessible]");
  });

  it.each([
    "/docs/index.html",
    "/docs/package.json",
    "/docs/swagger-ui.js.map",
    "/swagger-ui-bundle.js",
    "/index.html",
  ])("reaches no other file of the package: %s is a 404", async (path) => {
    expectErrorAnswer(await call(path), 404, "NOT_FOUND", `No endpoint at ${path}`, path);
  });
});

describe("the contract check inside call()", () => {
  /** A real answer, checked once by call(), as an exchange that a test can then spoil. */
  async function exchange(path: string, options: Parameters<typeof call>[1] = { key }): Promise<Exchange> {
    const res = await call(path, options);
    return {
      method: options?.method ?? "GET",
      url: `${BASE}${path}`,
      status: res.status,
      headers: new Headers(res.headers),
      text: res.text,
    };
  }
  const withBody = (ex: Exchange, edit: (body: any) => void): Exchange => {
    const body = JSON.parse(ex.text);
    edit(body);
    return { ...ex, text: JSON.stringify(body) };
  };

  it("fails an answer with a field added, dropped or retyped", async () => {
    const contract = await loadContract();
    const areas = await exchange("/api/areas");
    expect(() => contract.check(areas)).not.toThrow();
    expect(() => contract.check(withBody(areas, (b) => (b.data[0].extra = 1)))).toThrow(
      /body\/data\/0: Property "extra" does not match additional properties schema/,
    );
    expect(() => contract.check(withBody(areas, (b) => delete b.data[0].city_id))).toThrow(
      /body\/data\/0: Instance does not have required property "city_id"/,
    );
    expect(() => contract.check(withBody(areas, (b) => (b.data[0].city_id = "1")))).toThrow(
      /body\/data\/0\/city_id: Instance type "string" is invalid. Expected "integer"/,
    );
    expect(() => contract.check(withBody(areas, (b) => (b.data = {})))).toThrow(
      /body\/data: Instance type "object" is invalid. Expected "array"/,
    );
  });

  it("takes [] for 'none' in an address or a sales agent, and nothing else that is an array", async () => {
    const contract = await loadContract();
    const customers = await exchange("/api/customers?count=3");
    const noAddress = JSON.parse(customers.text).data.customers.find((c: { id: number }) => c.id === 2);
    expect(noAddress.address).toEqual([]);
    expect(() => contract.check(withBody(customers, (b) => (b.data.customers[1].address = [{}])))).toThrow(/address/);
    expect(() =>
      contract.check(withBody(customers, (b) => (b.data.customers[0].address.area.city.state.id = null))),
    ).toThrow(/state\/id/);
    const orders = await exchange("/api/orders?phone_number=9820000001");
    expect(() => contract.check(withBody(orders, (b) => (b.data.orders[0].salesagent = [])))).not.toThrow();
    expect(() => contract.check(withBody(orders, (b) => (b.data.orders[0].salesagent = ["Asha"])))).toThrow(
      /salesagent/,
    );
  });

  it("fails a status, a path or a method that the document does not give", async () => {
    const contract = await loadContract();
    const areas = await exchange("/api/areas");
    expect(() => contract.check({ ...areas, status: 418 })).toThrow(
      /status 418 is not documented for GET \/api\/areas; documented: 200, 304, 401, 403, 429, 500, 503/,
    );
    expect(() => contract.check({ ...areas, url: `${BASE}/api/areas/1` })).toThrow(
      /the path \/api\/areas\/1 is not in the document/,
    );
    expect(() => contract.check({ ...areas, method: "PUT" })).toThrow(
      /PUT is not documented for \/api\/areas \(only 405 may answer\)/,
    );
  });

  it("fails an answer without a header that the document requires", async () => {
    const contract = await loadContract();
    const areas = await exchange("/api/areas");
    const withoutEtag = new Headers(areas.headers);
    withoutEtag.delete("ETag");
    expect(() => contract.check({ ...areas, headers: withoutEtag })).toThrow(/required header ETag is missing/);

    const unauthenticated = await exchange("/api/areas", {});
    expect(unauthenticated.status).toBe(401);
    const noChallenge = new Headers(unauthenticated.headers);
    noChallenge.delete("WWW-Authenticate");
    expect(() => contract.check({ ...unauthenticated, headers: noChallenge })).toThrow(
      /required header WWW-Authenticate is missing/,
    );
    noChallenge.set("WWW-Authenticate", "Basic");
    expect(() => contract.check({ ...unauthenticated, headers: noChallenge })).toThrow(
      /header WWW-Authenticate "Basic"/,
    );

    const wrongMethod = await exchange("/api/areas", { key, method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    const noAllow = new Headers(wrongMethod.headers);
    noAllow.delete("Allow");
    expect(() => contract.check({ ...wrongMethod, headers: noAllow })).toThrow(/required header Allow is missing/);
  });

  it("fails a body where the document gives none, and an error outside the envelope", async () => {
    const contract = await loadContract();
    const first = await call("/api/area", { key });
    const notModified = await exchange("/api/area", { key, headers: { "If-None-Match": first.headers.get("ETag")! } });
    expect(notModified.status).toBe(304);
    expect(() => contract.check(notModified)).not.toThrow();
    expect(() => contract.check({ ...notModified, text: "{}" })).toThrow(/the document gives this answer no body/);

    const missing = await exchange("/api/nope");
    expect(() => contract.check(missing)).not.toThrow();
    expect(() => contract.check(withBody(missing, (b) => (b.error.code = "GONE")))).toThrow(/body\/error\/code/);
    expect(() => contract.check({ ...missing, text: "Not Found" })).toThrow(/the body is not JSON/);
  });

  it("checks HEAD against GET, without a body", async () => {
    const res = await call("/api/areas", { key, method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("ETag")).toMatch(/^"/);
  });
});
