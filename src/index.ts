// Wires the worker: global middleware, the API under /api and at the root, errors.
import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./env.ts";
import { dashboardApp } from "./dashboard/index.ts";
import { auth } from "./middleware/auth.ts";
import { cacheControl } from "./middleware/cache-control.ts";
import { corsForOrigins } from "./middleware/cors.ts";
import { notFoundHandler, onError, validationHook } from "./middleware/errors.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { requestLog } from "./middleware/request-log.ts";
import { usage } from "./middleware/usage.ts";
import { apiSecureHeaders } from "./middleware/secure-headers.ts";
import { services } from "./middleware/services.ts";
import { serverTiming } from "./middleware/timing.ts";
import { mountDocs } from "./openapi/index.ts";
import { scheduled } from "./scheduled.ts";
import { API_PREFIX, apiRoutes, publicRoutes } from "./routes/index.ts";

const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
for (const { route, handler } of apiRoutes) {
  const { middleware: own = [], ...described } = route as RouteConfig & { middleware?: unknown[] };
  // The document (and the typed client) take each route whole. zod-openapi validates only its query
  // and headers: a request body is its handler's to read (POST /customers/create merges it with the
  // query, body first, and lists every broken parameter in one 422), so no body validator is added.
  api.openAPIRegistry.registerPath(described);
  const served = { ...described, request: { ...described.request, body: undefined }, hide: true };
  api.openapi({ ...served, middleware: [auth, usage, rateLimit, ...own] } as any, handler as any);
}

// GET /healthz: public, so neither authentication nor the rate limit (it reads nothing).
for (const { route, handler } of publicRoutes) api.openapi(route, handler);

const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
app.use(
  requestId(),
  requestLog,
  cacheControl,
  ...serverTiming,
  apiSecureHeaders,
  corsForOrigins,
  services,
);
app.route(API_PREFIX, api);
// The root mount goes through a plain Hono so that the OpenAPI document lists the /api paths once.
app.route("/", new Hono<AppEnv>().route("/", api));
// GET /openapi.json and GET /docs: public (they describe the API, they serve none of its data).
mountDocs(app);
// GET /dashboard and /admin/keys: the administrator's side; they take the admin token, not API keys.
app.route("/", dashboardApp);

const routeTable = new Map<string, Set<string>>();
for (const r of api.routes) {
  if (r.method === "ALL") continue;
  const methods = routeTable.get(r.path) ?? new Set<string>();
  methods.add(r.method);
  routeTable.set(r.path, methods);
}
app.notFound(notFoundHandler(routeTable, [API_PREFIX]));
app.onError(onError);

// The module exports only the handler: workerd rejects any other runtime export of the main module.
// The app itself keeps its fetch (and routes, for the tests); scheduled is the daily cron (src/scheduled.ts).
export default Object.assign(app, { scheduled });
