// The service's errors (section 3): codes, ApiError, the envelope, its handlers and the documented error answers.
import { z } from "@hono/zod-openapi";
import type { Context, Env, NotFoundHandler } from "hono";
// Types c.get("requestId") on every context (hono/request-id sets it on every request).
import type {} from "hono/request-id";
import type { ZodError } from "zod";
import { errorName, log } from "./lib/log.ts";
import { headerRef } from "./response-headers.ts";

/** The one list of error codes: ErrorCode and the Error schema's enum both come from it. */
export const ErrorCodeSchema = z.enum([
  "BAD_REQUEST",
  "AUTHENTICATION_ERROR",
  "PERMISSION_ERROR",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "VALIDATION_ERROR",
  "SYNC_EXPIRED",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "SERVICE_UNAVAILABLE",
]);

export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 422 | 429 | 500 | 503;

export interface FieldError {
  field: string;
  message: string;
}

interface ApiErrorOptions {
  fields?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members of the error object, e.g. the id of the customer a conflict is with. */
  extra?: Record<string, unknown>;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    readonly description: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(description);
  }
}

/** A dependency (D1, a KV namespace) failed in a way that retrying later may fix. */
export class DependencyError extends Error {
  override readonly name = "DependencyError";
  constructor(
    readonly dependency: "database" | "key store" | "lookup cache",
    options?: { cause?: unknown },
  ) {
    super(`${dependency} unavailable`, options);
  }
}

const RETRY_AFTER_SECONDS = "5";

export const errors = {
  badRequest: (description: string) => new ApiError(400, "BAD_REQUEST", description),
  unauthenticated: (description: string) =>
    new ApiError(401, "AUTHENTICATION_ERROR", description, { headers: { "WWW-Authenticate": "Bearer" } }),
  forbidden: (description: string) => new ApiError(403, "PERMISSION_ERROR", description),
  notFound: (description: string) => new ApiError(404, "NOT_FOUND", description),
  methodNotAllowed: (method: string, allow: string[]) =>
    new ApiError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed here; allowed: ${allow.join(", ")}`, {
      headers: { Allow: allow.join(", ") },
    }),
  conflict: (description: string, extra?: Record<string, unknown>) =>
    new ApiError(409, "CONFLICT", description, extra ? { extra } : {}),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${limitBytes} bytes`),
  validation: (fields: FieldError[]) =>
    new ApiError(422, "VALIDATION_ERROR", fields.map((f) => `${f.field} ${f.message}`).join("; "), { fields }),
  /** A sync cursor that can no longer be served (docs/specification.md section 8, "Retention"). */
  syncExpired: (description: string) => new ApiError(410, "SYNC_EXPIRED", description),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", "Too many requests for this key; retry later", {
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
  authFailuresLimited: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      "RATE_LIMITED",
      "Too many requests with a missing or invalid API key from this address; retry later",
      {
        headers: { "Retry-After": String(retryAfterSeconds) },
      },
    ),
  signInLocked: (retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", "Too many failed sign-ins from this address; retry later", {
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
  enrollmentLocked: (retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", "Too many failed enrollment code exchanges from this address; retry later", {
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
  internal: () => new ApiError(500, "INTERNAL_ERROR", "The service failed to answer this request"),
  unavailable: (what: string) =>
    new ApiError(503, "SERVICE_UNAVAILABLE", `The ${what} cannot be reached; retry later`, {
      headers: { "Retry-After": RETRY_AFTER_SECONDS },
    }),
};

/** Any thrown value as an ApiError: unknown faults become a bare 500 that says nothing of their cause. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const dependency = findCause(err, (e): e is DependencyError => e instanceof DependencyError);
  if (dependency) return errors.unavailable(dependency.dependency);
  return errors.internal();
}

export function errorBody(err: ApiError, source: string) {
  return {
    error: {
      code: err.code,
      description: err.description,
      source,
      status_code: err.status,
      ...(err.options.fields ? { fields: err.options.fields } : {}),
      ...err.options.extra,
    },
  };
}

export function findCause<T>(err: unknown, match: (e: unknown) => e is T): T | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (match(e)) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** For recognizing driver errors only: never for a response or a log line (it can hold SQL). */
export function causeMessages(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (e instanceof Error) parts.push(e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(" | ");
}

/** The envelope's `source`: without the query. */
export function sourceOf(c: Context): string {
  const url = new URL(c.req.url);
  // The URL parser leaves a stray % and [ ] ^ | as sent; encoded, source is a valid URI for any path.
  const path = url.pathname.replace(
    /%(?![0-9A-Fa-f]{2})|[[\]^|]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${url.origin}${path}`;
}

function sendError(c: Context, err: ApiError): Response {
  const res = c.json(errorBody(err, sourceOf(c)), err.status);
  for (const [name, value] of Object.entries(err.options.headers ?? {})) res.headers.set(name, value);
  return res;
}

export function onError<E extends Env>(err: Error, c: Context<E>): Response {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    // The error's name and the request id, never its message: driver messages can carry SQL.
    log({ level: "error", request_id: c.get("requestId"), error: errorName(err), status: apiError.status });
  }
  return sendError(c, apiError);
}

/** As Hono lists it: `:name` is a path parameter, ALL is middleware. */
export interface ServedRoute {
  method: string;
  path: string;
}

function pathPattern(path: string): RegExp {
  const segments = path.split("/").map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${segments.join("/")}$`);
}

/** From every served route's full path: a path some route serves is a 405 (Allow adds HEAD where GET is). */
export function notFoundHandler<E extends Env>(routes: readonly ServedRoute[]): NotFoundHandler<E> {
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
      return sendError(c, errors.methodNotAllowed(c.req.method, [...methods].sort()));
    }
    return sendError(c, errors.notFound(`No endpoint at ${path}`));
  };
}

/** zod-openapi's hook: a failed validation is one 422 listing every broken parameter once. */
export function validationHook(result: { success: true } | { success: false; error: unknown }): void {
  if (!result.success) throw errors.validation(fieldErrors(result.error as ZodError));
}

/** One entry per broken field (its first issue); an issue about the whole input is the field "request". */
export function fieldErrors(error: ZodError): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "request";
    if (!seen.has(field)) seen.set(field, { field, message: issue.message });
  }
  return [...seen.values()];
}

const errorExample = {
  error: {
    code: "VALIDATION_ERROR" as const,
    description: "count must be an integer between 1 and 100",
    source: "http://127.0.0.1:8787/api/customers",
    status_code: 422,
    fields: [{ field: "count", message: "must be an integer between 1 and 100" }],
  },
};

export const ErrorSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      description: z.string(),
      source: z.string().url(),
      status_code: z.number().int(),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      customer_id: z
        .number()
        .int()
        .optional()
        .openapi({ description: "With a 409: the customer that has this number" }),
    }),
  })
  .openapi("Error", { example: errorExample });

export const errorResponse = (description: string, headers?: Record<string, { $ref: string }>) => ({
  content: { "application/json": { schema: ErrorSchema } },
  description,
  ...(headers ? { headers } : {}),
});

/** apiRoute() adds it to every API route, with the route's own 403 text as its example. */
export const forbiddenResponse = (scope: string, path: string, description: string) => ({
  description: `The API key lacks the '${scope}' scope, which this endpoint needs`,
  content: {
    "application/json": {
      schema: ErrorSchema,
      example: {
        error: {
          code: "PERMISSION_ERROR" as const,
          description,
          source: `http://127.0.0.1:8787/api${path}`,
          status_code: 403,
        },
      },
    },
  },
});

export const authErrorResponses = {
  401: errorResponse("No valid API key: missing, malformed, unknown, expired, revoked or of the other mode", {
    "WWW-Authenticate": headerRef("WWW-Authenticate"),
  }),
  429: errorResponse(
    "Over the per-key rate limit, or too many requests with a missing or invalid key from this client address; see Retry-After",
    { "Retry-After": headerRef("Retry-After") },
  ),
  500: errorResponse("A fault of the service"),
  503: errorResponse("The database or the key store cannot be reached; see Retry-After", {
    "Retry-After": headerRef("Retry-After"),
  }),
} as const;

export const commonErrorResponses = {
  ...authErrorResponses,
  422: errorResponse("A parameter breaks its rule; `fields` lists every one"),
} as const;
