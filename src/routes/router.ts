// How the API's routes are made and put together. apiRoute() is the one way to make a route that
// answers only with a key: it documents the bearer scheme and puts authentication, the per-key
// rate limit and the scope that the route must name in front of the route's own middleware, so a
// route made with it cannot be served without them (test/auth.test.ts walks every documented route without a key). Routes made with
// plain createRoute answer without a key: only GET /healthz, which reads no data.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { auth } from "../middleware/auth.ts";
import { validationHook } from "../middleware/errors.ts";
import { rateLimit } from "../middleware/rate-limit.ts";
import { missingScopeDescription, requireScope } from "../middleware/scope.ts";
import { usage } from "../middleware/usage.ts";
import type { Scope } from "../keys/scopes.ts";
import { forbiddenResponse } from "../schemas/common.ts";

/** A router of the API: failed validation is one 422 listing every broken parameter. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

type ApiRouteConfig = Omit<RouteConfig, "security" | "middleware"> & {
  /** The scope a key needs for this route (docs/specification.md section 2): every API route names one. */
  scope: Scope;
  middleware?: readonly MiddlewareHandler[];
};

/**
 * A route that needs an API key: the limit on failed authentication per client address and
 * Authorization: Bearer (both in middleware/auth.ts), then the rate limit, then the key's scope
 * (403 naming it, documented on the route), then its own middleware.
 */
export function apiRoute<const R extends ApiRouteConfig>(config: R) {
  const { middleware = [], scope, ...rest } = config;
  const endpoint = `${rest.method.toUpperCase()} ${rest.path}`;
  const description = missingScopeDescription(scope, endpoint);
  return createRoute({
    ...rest,
    responses: { ...rest.responses, 403: forbiddenResponse(scope, rest.path, description) },
    security: [{ bearerAuth: [] }],
    middleware: [auth, usage, rateLimit, requireScope(scope, endpoint), ...middleware],
  });
}

/**
 * A route whose handler reads the request body itself (POST /customers/create merges its body with
 * its query, body first, and lists every broken parameter of both in one 422; zod-openapi's body
 * validator would answer a body on its own). The route goes into the router's document whole, with
 * its body; it is served as the same route without the body, so that no body validator is added,
 * and hidden, so that the document lists it once. The type stays the whole route's: the handler and
 * the typed client see the body's parameters.
 */
export function servedWithoutBody<R extends RouteConfig>(router: Pick<OpenAPIHono, "openAPIRegistry">, route: R): R {
  const { middleware: _middleware, hide: _hide, ...documented } = route;
  router.openAPIRegistry.registerPath(documented);
  const { body: _body, ...request } = route.request ?? {};
  return { ...route, request, hide: true };
}
