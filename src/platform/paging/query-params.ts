// Query parameter schemas shared by the routes. Query values arrive as strings; each parser is
// strict (no trimming, no clamping) and says in its message what the rule is.
import { z } from "@hono/zod-openapi";
import { decodeCursor } from "./cursor.ts";
import { MAX_COUNT } from "./pagination.ts";

/** A query value: absent, or one string (a repeated parameter is an error, not a silent pick). */
export function queryString(requiredMessage?: string) {
  return z.string({
    error: (issue) =>
      issue.input === undefined ? (requiredMessage ?? "is required") : "must be given once, as a single value",
  });
}

/** The largest skip or page taken: 15 digits, well inside exact integer range. */
export const MAX_OFFSET = 999_999_999_999_999;

/** A whole number in [min, max], written in plain digits (no sign, no spaces, no exponent). */
export function integerParam(min: number, max: number = MAX_OFFSET) {
  const message = `must be an integer between ${min} and ${max}`;
  return queryString()
    .regex(/^\d{1,15}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }));
}

/**
 * The document's description of a query value that spells an integer: the number's rules (what a
 * client must send), not the text it arrives as. The metadata is typed for the text; the cast
 * admits the numeric minimum, maximum, default and example.
 */
function integerDoc(description: string, rules: { minimum: number; maximum?: number; default?: number; example?: number }) {
  return { type: "integer", ...rules, param: { description } } as { type: "integer"; param: { description: string } };
}

/** The message of a cursor that does not decode (the schema's and the route's check say the same). */
export const NOT_A_CURSOR = "is not a cursor of this service: follow next_page_url as given";

export const pagingQuery = {
  count: integerParam(1, MAX_COUNT)
    .optional()
    .openapi(integerDoc(`Rows a page, 1 to ${MAX_COUNT}; default 10.`, { minimum: 1, maximum: MAX_COUNT, default: 10, example: 10 })),
  skip: integerParam(0)
    .optional()
    .openapi(integerDoc("Rows to skip; default 0. Not with page.", { minimum: 0, maximum: MAX_OFFSET, default: 0, example: 0 })),
  page: integerParam(1)
    .optional()
    .openapi(
      integerDoc("Page number, 1 or more: skip = (page - 1) * count. Not with skip. With cursor, it must be the cursor's page.", {
        minimum: 1,
        maximum: MAX_OFFSET,
        example: 2,
      }),
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

/**
 * For cross-parameter rules: run them even when a single parameter already failed, so that one 422
 * lists every broken parameter (zod skips refinements after a failure by default).
 */
export const EVEN_AFTER_ERRORS = { when: () => true } as const;

/**
 * skip and page are two ways to say one thing: both at once is an error. A cursor says where the
 * page starts, so skip with it is an error too (page may come with it: the route checks it is the
 * cursor's).
 */
export function skipOrPage(query: { skip?: unknown; page?: unknown; cursor?: unknown }, ctx: z.RefinementCtx) {
  if (query.skip !== undefined && query.page !== undefined) {
    ctx.addIssue({ code: "custom", path: ["page"], message: "cannot be combined with skip" });
  }
  if (query.skip !== undefined && query.cursor !== undefined) {
    ctx.addIssue({ code: "custom", path: ["skip"], message: "cannot be combined with cursor" });
  }
}
