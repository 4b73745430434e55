// The API's routers in the document's order, chained so the routes' types reach the typed client (docs/decisions.md).
import type { RouteConfig } from "@hono/zod-openapi";
import { customers } from "./customers/customers.index.ts";
import { enroll } from "./enroll/enroll.index.ts";
import * as enrollRoutes from "./enroll/enroll.routes.ts";
import { health } from "./health/health.index.ts";
import * as healthRoutes from "./health/health.routes.ts";
import { keys } from "./keys/keys.index.ts";
import { lookups } from "./lookups/lookups.index.ts";
import { orders } from "./orders/orders.index.ts";
import { createRouter } from "./access/access.route.ts";
import { sync } from "./sync/sync.index.ts";

export const API_PREFIX = "/api";

export const api = createRouter()
  .route("/", customers)
  .route("/", orders)
  .route("/", sync)
  .route("/", lookups)
  .route("/", keys)
  .route("/", health)
  .route("/", enroll);

/** Paths without the /api prefix: what the typed client is built on. */
export type AppType = typeof api;

/** Every route that takes a key (test/platform/auth.test.ts walks them). */
export const apiRoutes: { route: RouteConfig }[] = api.openAPIRegistry.definitions.flatMap((d) =>
  d.type === "route" && d.route.security?.length ? [{ route: d.route }] : [],
);

/** Served without a key (documented with `security: []`): they must read no data, except POST /enroll, whose code is
 * its credential (docs/specification.md section 9). */
export const publicRoutes = [
  { route: healthRoutes.health },
  { route: enrollRoutes.page },
  { route: enrollRoutes.exchange },
];
