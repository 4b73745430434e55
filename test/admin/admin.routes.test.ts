// The admin API's routes as a whole, through HTTP into the worker: every route made with
// adminRoute() refuses a request without the administrator's credential (walked from the admin
// router's own routes, as test/platform/auth.test.ts walks the API's), nothing else is mounted under /admin,
// and its 404s, 405s and 422s come from the same mechanisms as the API's.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import app from "../../src/index.ts";
import { adminAuth } from "../../src/admin/admin.auth.ts";
import { adminRoutes } from "../../src/admin/admin.routes.ts";
import { enrollAdminRoutes } from "../../src/enroll/enroll.admin.routes.ts";
import { call, errorEnvelope, expectErrorAnswer, statusAndHeaders, validationEnvelope } from "../helpers/http.ts";
import { MISSING_ADMIN_CREDENTIALS } from "../helpers/session.ts";
import { makeKey } from "../helpers/api-keys.ts";

const ADMIN = env.ADMIN_TOKEN!;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// Each refused token is a failed sign-in: the walks below stay under the address's lockout only
// when each test starts with none counted.
beforeEach(async () => {
  await env.DB.prepare("DELETE FROM admin_signin_failures").run();
});

/** The admin routers' routes (keys, enrollment codes), method and Hono path, once each (middleware entries left out). */
const routes = [
  ...new Set(
    [...adminRoutes.routes, ...enrollAdminRoutes.routes]
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path}`),
  ),
].map((route) => {
  const [method, path] = route.split(" ") as [string, string];
  return { method, path, url: path.replace(/:[^/]+/g, "key_0000000000000000") };
});

/** Each route, called with these headers (a POST with a valid body), answers this 401. */
async function expectRefused(headers: Record<string, string>, description: string) {
  for (const { method, url } of routes) {
    const res = await call(url, { method, headers, body: method === "POST" ? { name: "x", mode: "test" } : undefined });
    expect({
      route: `${method} ${url}`,
      ...statusAndHeaders(res, "WWW-Authenticate", "Cache-Control"),
      body: res.body,
    }).toEqual({
      route: `${method} ${url}`,
      status: 401,
      "WWW-Authenticate": "Bearer",
      "Cache-Control": headers.Authorization === undefined ? null : "no-store",
      body: errorEnvelope(401, "AUTHENTICATION_ERROR", description, url),
    });
  }
}

describe("every admin route", () => {
  it("is the admin API's list of endpoints", () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "GET /admin/audit",
      "GET /admin/enrollments",
      "GET /admin/keys",
      "GET /admin/salesagents",
      "POST /admin/enrollments",
      "POST /admin/enrollments/:id/revoke",
      "POST /admin/keys",
      "POST /admin/keys/:id/revoke",
      "POST /admin/keys/:id/roll",
      "POST /admin/keys/rotation",
    ]);
  });

  it("refuses a request without credentials, and changes nothing", async () => {
    const { record } = await makeKey({ name: "Kept" });
    await expectRefused({}, MISSING_ADMIN_CREDENTIALS);
    const keys = await call("/admin/keys", { headers: bearer(ADMIN) });
    expect(keys.body.data.map((k: { id: string; revoked_at: string | null }) => [k.id, k.revoked_at])).toEqual([
      [record.id, null],
    ]);
  });

  it("refuses a wrong administrator token", async () => {
    await expectRefused(bearer("not-the-admin-token"), "Invalid administrator token");
  });

  it("refuses an API key", async () => {
    const { secret } = await makeKey();
    await expectRefused(bearer(secret), "API keys do not open the admin API: use the administrator token");
  });

  it("runs the administrator's authentication first: no route under /admin is mounted any other way", () => {
    const admin = app.routes.filter((r) => r.method !== "ALL" && /^\/admin(\/|$)/.test(r.path));
    const first = new Map<string, unknown>();
    for (const r of admin) if (!first.has(`${r.method} ${r.path}`)) first.set(`${r.method} ${r.path}`, r.handler);
    expect([...first.keys()].sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const [route, handler] of first) expect({ route, auth: handler === adminAuth }).toEqual({ route, auth: true });
  });
});

describe("admin paths and methods", () => {
  it("answers 405 with Allow for another method, before authentication (docs/specification.md section 1)", async () => {
    const cases: [string, string, string][] = [
      ["/admin/keys", "DELETE", "GET, HEAD, POST"],
      ["/admin/keys", "PUT", "GET, HEAD, POST"],
      ["/admin/audit", "POST", "GET, HEAD"],
      ["/admin/salesagents", "PATCH", "GET, HEAD"],
      ["/admin/keys/key_0000000000000000/roll", "GET", "POST"],
      ["/admin/keys/anything/revoke", "DELETE", "POST"],
    ];
    for (const [path, method, allow] of cases) {
      for (const headers of [{}, bearer(ADMIN)]) {
        const res = await call(path, { method, headers });
        expect(statusAndHeaders(res, "Allow")).toEqual({ status: 405, Allow: allow });
        expect(res.body).toEqual(
          errorEnvelope(405, "METHOD_NOT_ALLOWED", `${method} is not allowed here; allowed: ${allow}`, path),
        );
      }
    }
  });

  it.each([
    "/api/admin/keys",
    "/api/admin/keys/key_0000000000000000/roll",
    "/admin/keys/",
    "/admin/keys/a/b/roll",
    "/admin/nope",
    "/admin",
  ])("answers 404 for %s: no admin route serves it, and there is no /api alias", async (path) => {
    const res = await call(path, { headers: bearer(ADMIN) });
    expectErrorAnswer(res, 404, "NOT_FOUND", `No endpoint at ${path}`, path);
  });

  it("answers 422 through the API's validation hook: a query parameter is given once", async () => {
    for (const [path, field] of [
      ["/admin/salesagents?q=a&q=b", "q"],
      ["/admin/audit?limit=1&limit=2", "limit"],
    ] as const) {
      const res = await call(path, { headers: bearer(ADMIN) });
      expect(statusAndHeaders(res, "Cache-Control")).toEqual({ status: 422, "Cache-Control": "no-store" });
      expect(res.body).toEqual(
        validationEnvelope(path.split("?")[0]!, [{ field, message: "must be given once, as a single value" }]),
      );
    }
  });
});
