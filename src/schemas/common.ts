import { z } from "@hono/zod-openapi";
import { ErrorCodeSchema } from "../lib/errors.ts";
import { PaginationSchema as PaginationFields } from "../lib/pagination.ts";
import { errorExample, paginationExample } from "./examples.ts";
import { headerRef } from "./headers.ts";

export const ErrorSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      description: z.string(),
      source: z.string().url(),
      status_code: z.number().int(),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      customer_id: z.number().int().optional().openapi({ description: "With a 409: the customer that has this number" }),
    }),
  })
  .openapi("Error", { example: errorExample });

/** "None", as the published interface writes it for an address or a sales agent: an empty array. */
export const EmptyArraySchema = z
  .array(z.unknown())
  .max(0)
  .openapi("EmptyArray", { description: "An empty array: the published interface's way of saying that there is none" });

/** The pagination object of every listing (its one schema is in src/lib/pagination.ts). */
export const PaginationSchema = PaginationFields.openapi("Pagination", { example: paginationExample });

const errorResponse = (description: string, headers?: Record<string, { $ref: string }>) => ({
  content: { "application/json": { schema: ErrorSchema } },
  description,
  ...(headers ? { headers } : {}),
});

/**
 * The 403 of a route whose key lacks the scope it needs (src/middleware/scope.ts makes the answer);
 * apiRoute() adds it to every API route, with the route's own description as its example.
 */
export const forbiddenResponse = (scope: string, path: string, description: string) => ({
  description: `The API key lacks the '${scope}' scope, which this endpoint needs`,
  content: {
    "application/json": {
      schema: ErrorSchema,
      example: {
        error: { code: "PERMISSION_ERROR" as const, description, source: `http://127.0.0.1:8787/api${path}`, status_code: 403 },
      },
    },
  },
});

/** The headers of a cached lookup's 200: its ETag, and who may keep it. */
export const cachedLookupHeaders = {
  ETag: headerRef("ETag"),
  "Cache-Control": {
    description: "The caller may keep the answer but must revalidate it (If-None-Match); no shared cache may keep it.",
    required: true,
    schema: { type: "string", const: "private, no-cache" },
  },
} as const;

/** A cached lookup's answer to a matching If-None-Match. */
export const notModifiedResponse = {
  description: "Not modified: If-None-Match matched the answer's ETag. No body.",
  headers: { ETag: headerRef("ETag") },
} as const;

/** The error answers of every authenticated endpoint, whatever it takes. */
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

/** The error answers every authenticated endpoint that takes parameters can give. */
export const commonErrorResponses = {
  ...authErrorResponses,
  422: errorResponse("A parameter breaks its rule; `fields` lists every one"),
} as const;

export { errorResponse };
