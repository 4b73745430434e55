import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum([
        "BAD_REQUEST",
        "AUTHENTICATION_ERROR",
        "NOT_FOUND",
        "METHOD_NOT_ALLOWED",
        "CONFLICT",
        "PAYLOAD_TOO_LARGE",
        "VALIDATION_ERROR",
        "RATE_LIMITED",
        "INTERNAL_ERROR",
        "SERVICE_UNAVAILABLE",
      ]),
      description: z.string(),
      source: z.string().url(),
      status_code: z.number().int(),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      customer_id: z.number().int().optional().openapi({ description: "With a 409: the customer that has this number" }),
    }),
  })
  .openapi("Error");

export const PaginationSchema = z
  .object({
    current_page: z.number().int(),
    first_page_url: z.string().url(),
    prev_page_url: z.string().url().nullable(),
    next_page_url: z.string().url().nullable(),
    last_page_url: z.string().url(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    path: z.string().url(),
  })
  .openapi("Pagination");

const errorResponse = (description: string) => ({
  content: { "application/json": { schema: ErrorSchema } },
  description,
});

/** The error answers every authenticated endpoint can give. */
export const commonErrorResponses = {
  401: errorResponse("No valid API key: missing, malformed, unknown, expired, revoked or of the other mode"),
  422: errorResponse("A parameter breaks its rule; `fields` lists every one"),
  429: errorResponse("Over the per-key rate limit; see Retry-After"),
  500: errorResponse("A fault of the service"),
  503: errorResponse("The database or the key store cannot be reached; see Retry-After"),
} as const;

export { errorResponse };
