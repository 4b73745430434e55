// Turns every failure into the error envelope: thrown errors, unknown paths, wrong methods and
// failed validation. Nothing of a fault's cause (stack, SQL, binding names) reaches the caller.
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { Hook } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "../env.ts";
import { type ApiError, errorBody, errors, toApiError } from "../lib/errors.ts";
import { fieldErrors } from "../lib/field-errors.ts";
import { errorName, log } from "../lib/log.ts";

/** The absolute URL of the endpoint called, without the query. */
export function sourceOf(c: Context): string {
  const url = new URL(c.req.url);
  // The URL parser leaves a stray % and [ ] ^ | as sent; encoded, source is a valid URI for any path.
  const path = url.pathname.replace(/%(?![0-9A-Fa-f]{2})|[[\]^|]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${url.origin}${path}`;
}

export function errorResponse(c: Context, err: ApiError): Response {
  const res = c.json(errorBody(err, sourceOf(c)), err.status);
  for (const [name, value] of Object.entries(err.options.headers ?? {})) res.headers.set(name, value);
  return res;
}

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    // The error's name and the request id, never its message: driver messages can carry SQL.
    log({ level: "error", request_id: c.get("requestId"), error: errorName(err), status: apiError.status });
  }
  return errorResponse(c, apiError);
};

/** A served route as Hono lists it: `:name` is a path parameter, ALL is middleware. */
export interface ServedRoute {
  method: string;
  path: string;
}

/** A route path as a pattern for a whole request path: a parameter is one non-empty segment. */
function pathPattern(path: string): RegExp {
  const segments = path.split("/").map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${segments.join("/")}$`);
}

/**
 * The one 404/405 handler, built from every served route with its full path (the API's under /api
 * and at the root, the admin API's once): a path that some route serves is a 405 listing its
 * methods in Allow (HEAD wherever GET), any other a 404.
 */
export function notFoundHandler(routes: readonly ServedRoute[]): NotFoundHandler<AppEnv> {
  const table = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, path } of routes) {
    if (method === "ALL") continue;
    const entry = table.get(path) ?? { pattern: pathPattern(path), methods: new Set<string>() };
    entry.methods.add(method);
    table.set(path, entry);
  }
  return (c) => {
    const path = c.req.path;
    const methods = new Set([...table.values()].filter((e) => e.pattern.test(path)).flatMap((e) => [...e.methods]));
    if (methods.size > 0) {
      if (methods.has("GET")) methods.add("HEAD");
      return errorResponse(c, errors.methodNotAllowed(c.req.method, [...methods].sort()));
    }
    return errorResponse(c, errors.notFound(`No endpoint at ${path}`));
  };
}

/** zod-openapi's hook: a failed validation is one 422 listing every broken parameter once. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw errors.validation(fieldErrors(result.error as ZodError));
};

