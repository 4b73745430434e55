import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../platform/env.ts";
import { findOrdersByPhone } from "./orders.queries.ts";
import { parseApiDate } from "../platform/lib/dates.ts";
import { errors } from "../platform/errors.ts";
import { carriedParams } from "../platform/paging/pagination.ts";
import { isTenDigits, normalizePhone } from "../platform/lib/phone.ts";
import { commonErrorResponses, errorResponse } from "../platform/errors.ts";
import { PaginationSchema } from "../platform/paging/pagination.ts";
import { OrderSchema } from "./orders.schemas.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, queryString, skipOrPage } from "../platform/paging/query-params.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { toOrders } from "./orders.serialize.ts";
import { apiRoute } from "../platform/route.ts";

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
    from_date: apiDate.openapi({ param: { description: "First day, inclusive: dd-mm-yyyy or yyyy-mm-dd" }, example: "01-01-2026", type: "string", pattern: DATE_PATTERN }),
    to_date: apiDate.openapi({ param: { description: "Last day, inclusive: dd-mm-yyyy or yyyy-mm-dd" }, example: "31-01-2026", type: "string", pattern: DATE_PATTERN }),
    ...pagingQuery,
  })
  .superRefine(skipOrPage, EVEN_AFTER_ERRORS)
  .superRefine((q, ctx) => {
    if (q.from_date && q.to_date && q.from_date > q.to_date) {
      ctx.addIssue({ code: "custom", path: ["from_date"], message: "must not be after to_date" });
    }
  }, EVEN_AFTER_ERRORS);

export const route = apiRoute({
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
    404: errorResponse("No customer has this phone number (for a key bound to a sales agent: none of that agent's customers)"),
    ...commonErrorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  // The filters as normalized: the same customer and dates however the request wrote them.
  // An agent-bound key finds the number among its agent's customers only; the cursor carries the agent.
  const agent = c.get("apiKey")!.agent_id;
  const scope = listingScope("orders", { phone: q.phone_number, from: q.from_date ?? null, to: q.to_date ?? null }, agent);
  const page = requestedPage(q, scope);
  const found = await findOrdersByPhone(
    c.get("services").db,
    { phoneKey: q.phone_number, from: q.from_date, to: q.to_date, agentId: agent },
    page,
  );
  if (!found) throw errors.notFound("No customer has this phone number");
  const orders = toOrders(found);
  const carried = carriedParams((n) => c.req.query(n), ["count", "phone_number", "from_date", "to_date"]);
  const pagination = paginationOf(c.req.url, page, found.total, carried, orders, (o) => ({ date: o.date, id: o.id }), scope);
  return c.json({ data: { orders, pagination } }, 200);
};
