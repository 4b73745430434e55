import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../platform/env.ts";
import { listCustomers } from "./customers.queries.ts";
import { carriedParams } from "../platform/paging/pagination.ts";
import { commonErrorResponses } from "../platform/errors.ts";
import { PaginationSchema } from "../platform/paging/pagination.ts";
import { CustomerSchema } from "./customers.schemas.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, skipOrPage } from "../platform/paging/query-params.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { toCustomer } from "./customers.serialize.ts";
import { apiRoute } from "../platform/route.ts";

export const route = apiRoute({
  method: "get",
  scope: "read",
  path: "/customers",
  tags: ["Customers"],
  operationId: "listCustomers",
  summary: "List customers",
  description:
    "The organization's customers by id ascending, a page at a time. A key bound to a sales agent lists that agent's customers only (total and page URLs count only those).",
  request: { query: z.object(pagingQuery).superRefine(skipOrPage, EVEN_AFTER_ERRORS) },
  responses: {
    200: {
      description: "A page of customers",
      content: {
        "application/json": {
          schema: z.object({ data: z.object({ customers: z.array(CustomerSchema), pagination: PaginationSchema }) }),
        },
      },
    },
    ...commonErrorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  // An agent-bound key sees its agent's customers only: the query is restricted, and so is the cursor.
  const agent = c.get("apiKey")!.agent_id;
  const scope = listingScope("customers", {}, agent);
  const page = requestedPage(c.req.valid("query"), scope);
  const { rows, total } = await listCustomers(c.get("services").db, page, agent);
  const customers = rows.map(toCustomer);
  const carried = carriedParams((n) => c.req.query(n), ["count"]);
  const pagination = paginationOf(c.req.url, page, total, carried, customers, (row) => ({ id: row.id }), scope);
  return c.json({ data: { customers, pagination } }, 200);
};
