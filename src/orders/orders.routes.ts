// GET /orders, as the document describes it: its query (the phone number and dates as normalized
// before the handler sees them) and its answers.
import { z } from "@hono/zod-openapi";
import { commonErrorResponses, errorResponse } from "../platform/errors.ts";
import { parseApiDate } from "../platform/lib/dates.ts";
import { isTenDigits, normalizePhone } from "../platform/lib/phone.ts";
import { PaginationSchema } from "../platform/paging/pagination.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, queryString, skipOrPage } from "../platform/paging/query-params.ts";
import { apiRoute } from "../access/access.route.ts";
import { OrderSchema } from "./orders.schemas.ts";

const DATE_MESSAGE = "must be a real date written dd-mm-yyyy (or yyyy-mm-dd)";
/** The two ways of writing a date, for the document; whether the date exists is checked too. */
const DATE_PATTERN = "^([0-9]{2}-[0-9]{2}-[0-9]{4}|[0-9]{4}-[0-9]{2}-[0-9]{2})$";

const apiDate = queryString()
  .transform((value, ctx) => {
    const iso = parseApiDate(value);
    if (iso === null) ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
    return iso ?? "";
  })
  .optional();

const query = z
  .object({
    phone_number: queryString()
      .transform((value, ctx) => {
        const normalized = normalizePhone(value);
        if (!isTenDigits(normalized)) {
          ctx.addIssue({ code: "custom", message: "must be a 10-digit phone number (a +91 or 0 prefix is allowed)" });
        }
        return normalized;
      })
      .openapi({
        param: {
          description:
            "The customer's phone number in any common form: spaces, hyphens, dots and brackets are ignored, then a leading +, then 91 before 12 digits or 0 before 11; what remains must be 10 digits. E.g. 9820000001, +91 98200 00001, 098200-00001.",
        },
        example: "+91 98200 00001",
        type: "string",
      }),
    from_date: apiDate.openapi({
      param: { description: "First day, inclusive: dd-mm-yyyy or yyyy-mm-dd" },
      example: "01-01-2026",
      type: "string",
      pattern: DATE_PATTERN,
    }),
    to_date: apiDate.openapi({
      param: { description: "Last day, inclusive: dd-mm-yyyy or yyyy-mm-dd" },
      example: "31-01-2026",
      type: "string",
      pattern: DATE_PATTERN,
    }),
    ...pagingQuery,
  })
  .superRefine(skipOrPage, EVEN_AFTER_ERRORS)
  .superRefine((q, ctx) => {
    if (q.from_date && q.to_date && q.from_date > q.to_date) {
      ctx.addIssue({ code: "custom", path: ["from_date"], message: "must not be after to_date" });
    }
  }, EVEN_AFTER_ERRORS);

export const list = apiRoute({
  method: "get",
  scope: "read",
  path: "/orders",
  tags: ["Orders"],
  operationId: "listOrders",
  summary: "List a customer's sales orders",
  description:
    "The sales orders of the customer with this phone number, newest first (date, then id, descending), each with its products, customer, agents, last status and invoices. A key bound to a sales agent finds the number among that agent's customers only: another agent's customer is a 404, as an unknown number is.",
  request: { query },
  responses: {
    200: {
      description: "A page of orders",
      content: {
        "application/json": {
          schema: z.object({ data: z.object({ orders: z.array(OrderSchema), pagination: PaginationSchema }) }),
        },
      },
    },
    404: errorResponse(
      "No customer has this phone number (for a key bound to a sales agent: none of that agent's customers)",
    ),
    ...commonErrorResponses,
  },
});
