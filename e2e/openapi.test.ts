// The OpenAPI document as a real `wrangler dev` serves it: valid OpenAPI 3.1, clean under Redocly's
// recommended ruleset, complete, every reference and example sound; and /docs rendering in a real
// browser with nothing but this server, without a serious or critical accessibility violation.
import { Validator as SchemaValidator, type Schema } from "@cfworker/json-schema";
import { Validator } from "@seriousme/openapi-schema-validator";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redoclyLint } from "../scripts/lib/openapi-lint.ts";
import { expectNoSeriousViolations } from "./helpers/axe.ts";
import { launchBrowser, SKIP_BROWSER_TESTS } from "./helpers/browser.ts";
import { startWranglerDev } from "./helpers/server.ts";

const API_PATHS = [
  "/api/area",
  "/api/areas",
  "/api/customers",
  "/api/customers/create",
  "/api/enroll",
  "/api/fetch-salesagent-by-pincode",
  "/api/keys/rotate",
  "/api/orders",
  "/api/postalcodes",
  "/api/salesagents",
  "/api/sync",
];

type Json = Record<string, any>;
let server: Awaited<ReturnType<typeof startWranglerDev>>;
let doc: Json;

beforeAll(async () => {
  server = await startWranglerDev();
  const res = await fetch(`${server.url}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});
afterAll(async () => {
  await server?.cleanup();
});

/** Every value in the document with the JSON pointer where it sits. */
function* walk(value: unknown, pointer = ""): Generator<[string, unknown]> {
  yield [pointer, value];
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value))
      yield* walk(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  }
}

function resolve(ref: string): unknown {
  let target: unknown = doc;
  for (const part of ref.replace(/^#\//, "").split("/")) {
    target = (target as Json | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return target;
}

/** A copy without "example" members: the validator would read an example's "id" as a schema id. */
function withoutExamples(value: unknown): Json {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === "example" ? undefined : v))) as Json;
}

describe("GET /openapi.json", () => {
  it("passes an OpenAPI 3.1 validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("passes Redocly's recommended ruleset, nothing narrowed, without an error or a warning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "olk-openapi-"));
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
      const result = await redoclyLint(join(dir, "openapi.json"));
      expect(result.problems).toEqual([]);
      expect([result.errors, result.warnings]).toEqual([0, 0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the nine API paths, once each, behind the bearer scheme, and the health check and enrollment without it", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(API_PATHS);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
    );
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      "get /api/area",
      "get /api/areas",
      "get /api/customers",
      "get /api/fetch-salesagent-by-pincode",
      "get /api/orders",
      "get /api/postalcodes",
      "get /api/salesagents",
      "get /api/sync",
      "post /api/customers/create",
      "post /api/enroll",
      "post /api/keys/rotate",
    ]);
    for (const { path, method, op } of operations) {
      const open = path === "/api/enroll";
      expect(op.security, `${method} ${path}`).toEqual(open ? [] : [{ bearerAuth: [] }]);
      // POST /enroll's 401 is a refused enrollment code, not a missing key.
      expect(Object.hasOwn(op.responses, "401"), `${method} ${path}`).toBe(!open || method === "post");
    }
  });

  it("has no reference that leads nowhere", () => {
    const refs = [...walk(doc)].filter(([p, v]) => p.endsWith("/$ref") && typeof v === "string");
    expect(refs.length).toBeGreaterThan(50);
    for (const [pointer, ref] of refs) expect(resolve(ref as string), `${pointer} -> ${ref}`).toBeDefined();
  });

  it("gives examples that match their own schemas", () => {
    const examples = [...walk(doc)].filter(
      ([pointer, value]) =>
        pointer.endsWith("/example") && !pointer.includes("/properties/example") && value !== undefined,
    );
    expect(examples.length).toBeGreaterThan(5);
    for (const [pointer, example] of examples) {
      const parent = resolve(`#${pointer.slice(0, -"/example".length)}`) as Json;
      const validator = new SchemaValidator(
        { ...withoutExamples(parent), components: withoutExamples(doc.components) } as Schema,
        "2020-12",
        false,
      );
      const result = validator.validate(example);
      expect(
        result.errors.map((e) => `${e.instanceLocation}: ${e.error}`),
        pointer,
      ).toEqual([]);
    }
  });
});

describe.skipIf(SKIP_BROWSER_TESTS)("GET /docs in a browser", () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it("renders every operation from this server alone, with no serious accessibility violation", async () => {
    browser = await launchBrowser();
    const page = await browser.newPage();
    const origin = new URL(server.url).origin;
    const elsewhere: string[] = [];
    const problems: string[] = [];
    // Nothing may leave this server: any other request is recorded and refused.
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith("data:")) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));

    const res = await page.goto(`${server.url}/docs`);
    expect(res?.status()).toBe(200);
    // Swagger UI draws the operations from the document it fetches: all of them waited for, not the first.
    const rendered = () =>
      page.locator(".opblock-summary-path").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")).sort());
    await expect.poll(rendered, { timeout: 30_000 }).toEqual([...API_PATHS].sort());
    await expect(page.locator(".info .title").innerText()).resolves.toContain("Order and customer lookup API");
    await expectNoSeriousViolations(page, "/docs with every operation collapsed");

    // The operation with the most controls open, then in "Try it out": its parameters (one a list
    // of values), answers and form are checked too.
    await page.locator("#operations-Customers-createCustomer .opblock-summary-control").click();
    await page.locator(".opblock.is-open .responses-wrapper").waitFor();
    await expectNoSeriousViolations(page, "/docs with an operation expanded");
    await page.locator(".opblock.is-open .try-out__btn").click();
    await page.locator(".opblock.is-open .btn.execute").waitFor();
    await expectNoSeriousViolations(page, "/docs with an operation in Try it out");
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: true });
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});
