// How the API's routes are made: apiRoute() puts authentication, usage, the rate limit and the scope in front of a
// route, so nothing made with it answers without a key (test/platform/auth.test.ts).
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { auth, keyRotationSignals } from "./access.auth.ts";
import { validationHook } from "../platform/errors.ts";
import { rateLimit } from "./access.rate-limit.ts";
import { missingScopeDescription, requireScope } from "./access.scope.ts";
import { usage } from "./access.usage.ts";
import type { Scope } from "../keys/keys.rules.ts";
import { forbiddenResponse } from "../platform/errors.ts";

/** A router of the API: failed validation is one 422 listing every broken parameter. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

type ApiRouteConfig = Omit<RouteConfig, "security" | "middleware"> & {
  /** The scope a key needs for this route (docs/specification.md section 2): every API route names one. */
  scope: Scope;
  middleware?: readonly MiddlewareHandler[];
};

export function apiRoute<const R extends ApiRouteConfig>(config: R) {
  const { middleware = [], scope, ...rest } = config;
  const endpoint = `${rest.method.toUpperCase()} ${rest.path}`;
  const description = missingScopeDescription(scope, endpoint);
  return createRoute({
    ...rest,
    responses: { ...rest.responses, 403: forbiddenResponse(scope, rest.path, description) },
    security: [{ bearerAuth: [] }],
    middleware: [auth, keyRotationSignals, usage, rateLimit, requireScope(scope, endpoint), ...middleware],
  });
}

/** A route for what a key does to itself (POST /keys/rotate): authentication, usage and rate limit, no scope. */
export function ownKeyRoute<const R extends Omit<ApiRouteConfig, "scope">>(config: R) {
  const { middleware = [], ...rest } = config;
  return createRoute({
    ...rest,
    security: [{ bearerAuth: [] }],
    middleware: [auth, keyRotationSignals, usage, rateLimit, ...middleware],
  });
}

// For a handler that reads the body itself (so one 422 lists body and query together): documented whole, served hidden
// without the body so that no validator is added; the type keeps the body's parameters.
export function servedWithoutBody<R extends RouteConfig>(router: Pick<OpenAPIHono, "openAPIRegistry">, route: R): R {
  const { middleware: _middleware, hide: _hide, ...documented } = route;
  router.openAPIRegistry.registerPath(documented);
  const { body: _body, ...request } = route.request ?? {};
  return { ...route, request, hide: true };
}
