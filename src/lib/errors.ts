// The one module that builds errors. Every non-2xx answer of the service is an ApiError rendered by
// errorBody() into the envelope of docs/specification.md section 3.
import { z } from "zod";

/**
 * Every error code of the service, the one list: ErrorCode is its type, and the OpenAPI document's
 * Error schema takes its enum from it (src/schemas/common.ts).
 */
export const ErrorCodeSchema = z.enum([
  "BAD_REQUEST",
  "AUTHENTICATION_ERROR",
  "PERMISSION_ERROR",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "VALIDATION_ERROR",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "SERVICE_UNAVAILABLE",
]);

export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 503;

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
  /** Authenticated, but this key may not do this. */
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
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", "Too many requests for this key; retry later", {
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
  /** Any request for an API endpoint from a client address with too many failed authentications. */
  authFailuresLimited: (retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", "Too many requests with a missing or invalid API key from this address; retry later", {
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
  /** The administrator's sign-in from this client address, after too many failures. */
  signInLocked: (retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", "Too many failed sign-ins from this address; retry later", {
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

/** The error envelope (docs/specification.md section 3) of an error, as sent. */
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

/** The first error in a chain of causes that satisfies the predicate. */
export function findCause<T>(err: unknown, match: (e: unknown) => e is T): T | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (match(e)) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The text of an error and its causes, for recognizing driver errors (never for a response). */
export function causeMessages(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (e instanceof Error) parts.push(e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(" | ");
}
