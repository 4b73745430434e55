// adminRoute(), the one way to make an admin route, so that none is served without the administrator's
// authentication. Hidden: the published document describes the API that takes API keys, not this side.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../platform/env.ts";
import { limitBody } from "../platform/middleware/body-limit.ts";
import { validationHook } from "../platform/errors.ts";
import { adminAuth } from "./admin.auth.ts";

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
