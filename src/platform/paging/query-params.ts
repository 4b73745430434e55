// Query parameter schemas shared by the routes: strict (no trimming, no clamping), each message stating the rule.
import { z } from "@hono/zod-openapi";
import { decodeCursor } from "./cursor.ts";
import { MAX_COUNT } from "./pagination.ts";

/** A repeated parameter is an error, not a silent pick. */
export function queryString(requiredMessage?: string) {
  return z.string({
    error: (issue) =>
      issue.input === undefined ? (requiredMessage ?? "is required") : "must be given once, as a single value",
  });
}

/** 15 digits: well inside exact integer range. */
export const MAX_OFFSET = 999_999_999_999_999;

export function integerParam(min: number, max: number = MAX_OFFSET) {
  const message = `must be an integer between ${min} and ${max}`;
  return queryString()
    .regex(/^\d{1,15}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }));
}

// Documents the number a client sends, not the text it arrives as (the cast admits numeric rules for text).
function integerDoc(
  description: string,
  rules: { minimum: number; maximum?: number; default?: number; example?: number },
) {
  return { type: "integer", ...rules, param: { description } } as { type: "integer"; param: { description: string } };
}

/** Shared so that the schema's check and the route's say the same. */
export const NOT_A_CURSOR = "is not a cursor of this service: follow next_page_url as given";

export const pagingQuery = {
  count: integerParam(1, MAX_COUNT)
    .optional()
    .openapi(
      integerDoc(`Rows a page, 1 to ${MAX_COUNT}; default 10.`, {
        minimum: 1,
        maximum: MAX_COUNT,
        default: 10,
        example: 10,
      }),
    ),
  skip: integerParam(0)
    .optional()
    .openapi(
      integerDoc("Rows to skip; default 0. Not with page.", {
        minimum: 0,
        maximum: MAX_OFFSET,
        default: 0,
        example: 0,
      }),
    ),
  page: integerParam(1)
    .optional()
    .openapi(
      integerDoc(
        "Page number, 1 or more: skip = (page - 1) * count. Not with skip. With cursor, it must be the cursor's page.",
        {
          minimum: 1,
          maximum: MAX_OFFSET,
          example: 2,
        },
      ),
    ),
  cursor: queryString()
    .refine((value) => decodeCursor(value) !== null, { error: NOT_A_CURSOR })
    .optional()
    .openapi({
      param: {
        description:
          "Opaque: the cursor that next_page_url carries. The page then starts right after the last row of the page before, " +
          "which reads only the page's own rows however deep it is, and never repeats or skips a row when rows were added " +
          "in between. It must come with the same filters and count as the request that gave it (page, if sent, must be its " +
          "page); not with skip.",
      },
      type: "string",
      example: "eyJ2IjoxLCJsIjoiY3VzdG9tZXJzIiwicyI6e30sIm4iOjEwLCJhIjpudWxsLCJwIjoyLCJrIjpbMTBdfQ",
    }),
};

/** Cross-parameter rules run even after a failure (zod skips them by default), so one 422 lists all. */
export const EVEN_AFTER_ERRORS = { when: () => true } as const;

/** page may come with a cursor: the route checks it is the cursor's. */
export function skipOrPage(query: { skip?: unknown; page?: unknown; cursor?: unknown }, ctx: z.RefinementCtx) {
  if (query.skip !== undefined && query.page !== undefined) {
    ctx.addIssue({ code: "custom", path: ["page"], message: "cannot be combined with skip" });
  }
  if (query.skip !== undefined && query.cursor !== undefined) {
    ctx.addIssue({ code: "custom", path: ["skip"], message: "cannot be combined with cursor" });
  }
}
