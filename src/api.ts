// The API: every capability's endpoints, each served under /api and at the root (src/app.ts mounts
// it twice), in the document's order. The capabilities' routers are chained, so that the routes'
// types reach the typed client (src/client.ts) as they are. Every route but GET /healthz is made
// with apiRoute() (platform/route.ts), which puts authentication and the rate limit in front of it;
// GET /healthz answers without a key and serves no data.
import type { RouteConfig } from "@hono/zod-openapi";
import { customers } from "./customers/customers.index.ts";
import { health } from "./health/health.index.ts";
import * as healthRoutes from "./health/health.routes.ts";
import { lookups } from "./lookups/lookups.index.ts";
import { orders } from "./orders/orders.index.ts";
import { createRouter } from "./platform/route.ts";

export const API_PREFIX = "/api";

export const api = createRouter().route("/", customers).route("/", orders).route("/", lookups).route("/", health);

/** The API's routes, paths without the /api prefix: what the typed client is built on. */
export type AppType = typeof api;

/** Every route in the document that takes a key: each answers only with one (test/platform/auth.test.ts walks them). */
export const apiRoutes: { route: RouteConfig }[] = api.openAPIRegistry.definitions.flatMap((d) =>
  d.type === "route" && d.route.security?.length ? [{ route: d.route }] : [],
);

/** Served without a key (documented with `security: []`): they must read no data. */
export const publicRoutes = [{ route: healthRoutes.health }];
