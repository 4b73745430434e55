// adminRoute(), the one way to make an admin route, so that none is served without the administrator's authentication.
// Hidden: the published document describes the API that takes API keys, not this side.
import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
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

/** The actor of the admin API's changes in the key audit (docs/specification.md section 2). */
export const ADMIN_API = { actor: "admin-api" } as const;

/** The request of a route whose path ends in a record's `{id}`. */
export const idParam = { params: z.object({ id: z.string() }) };

/** An admin route with one answer, `status`, described. */
export function adminAnswering<
  const M extends "get" | "post",
  const P extends string,
  const S extends 200 | 201,
  const Q extends NonNullable<RouteConfig["request"]> = Record<never, never>,
>(method: M, path: P, status: S, description: string, request?: Q) {
  return adminRoute({
    method,
    path,
    request: (request ?? {}) as Q,
    responses: { [status]: { description } } as { [K in S]: { description: string } },
  });
}
