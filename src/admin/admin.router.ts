// How the admin API's routes are made. adminRoute() is the one way to make one: it puts the
// administrator's authentication (admin.auth.ts: the token, or the dashboard session with its CSRF token
// on writes, both behind the sign-in throttle), the body limit and Cache-Control: no-store in front
// of the route's own middleware, so an admin route cannot be served without them
// (test/admin/admin.routes.test.ts walks every one without credentials). Every admin route is hidden:
// the published document describes the API, which takes API keys, not the administrator's side.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../platform/env.ts";
import { limitBody } from "../platform/middleware/body-limit.ts";
import { validationHook } from "../platform/errors.ts";
import { adminAuth } from "./admin.auth.ts";

/** The admin API's router: failed validation is the API's one 422 listing every broken parameter. */
export function createAdminRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

// New secrets travel in these answers: no cache may keep them, whatever the answer.
const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
});

type AdminRouteConfig = Omit<RouteConfig, "security" | "middleware" | "hide"> & {
  middleware?: readonly MiddlewareHandler[];
};

/** An admin route: authentication first (before the body or a parameter is looked at), then the body limit. */
export function adminRoute<const R extends AdminRouteConfig>(config: R) {
  const { middleware = [], ...rest } = config;
  return createRoute({ ...rest, hide: true, middleware: [adminAuth, limitBody, noStore, ...middleware] });
}
