// The API: every endpoint, each served under /api and at the root (src/index.ts mounts it twice).
// One chain of .openapi(route, handler), so that the routes' types reach the typed client
// (src/client.ts) as they are. Every route but GET /healthz is made with apiRoute() (router.ts),
// which puts authentication and the rate limit in front of it; GET /healthz answers without a key
// and serves no data.
import type { RouteConfig } from "@hono/zod-openapi";
import * as healthz from "./healthz.ts";
import * as areas from "./areas.list.ts";
import * as customersCreate from "./customers.create.ts";
import * as customersList from "./customers.list.ts";
import * as ordersList from "./orders.list.ts";
import * as postalcodes from "./postalcodes.list.ts";
import * as salesagentsByPincode from "./salesagents.by-pincode.ts";
import * as salesagents from "./salesagents.list.ts";
import { createRouter, servedWithoutBody } from "./router.ts";

export const API_PREFIX = "/api";

const router = createRouter();

// The order is the document's.
export const api = router
  .openapi(customersList.route, customersList.handler)
  .openapi(servedWithoutBody(router, customersCreate.route), customersCreate.handler)
  .openapi(ordersList.route, ordersList.handler)
  .openapi(salesagentsByPincode.route, salesagentsByPincode.handler)
  .openapi(areas.route, areas.handler)
  .openapi(areas.aliasRoute, areas.aliasHandler)
  .openapi(postalcodes.route, postalcodes.handler)
  .openapi(salesagents.route, salesagents.handler)
  .openapi(healthz.route, healthz.handler);

/** The API's routes, paths without the /api prefix: what the typed client is built on. */
export type AppType = typeof api;

/** Every route in the document that takes a key: each answers only with one (test/auth.test.ts walks them). */
export const apiRoutes: { route: RouteConfig }[] = api.openAPIRegistry.definitions.flatMap((d) =>
  d.type === "route" && d.route.security?.length ? [{ route: d.route }] : [],
);

/** Served without a key (documented with `security: []`): they must read no data. */
export const publicRoutes = [healthz];
