import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { listSalesAgents } from "../db/lookups.ts";
import { carriedParams } from "../lib/pagination.ts";
import { commonErrorResponses, PaginationSchema } from "../schemas/common.ts";
import { OrderSalesAgentSchema } from "../schemas/order.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, skipOrPage } from "../schemas/params.ts";
import { listingScope, paginationOf, requestedPage } from "./paging.ts";
import { toSalesAgent } from "../lookups/answer.ts";
import { apiRoute } from "./router.ts";

export const route = apiRoute({
  method: "get",
  scope: "read",
  path: "/salesagents",
  tags: ["Lookups"],
  operationId: "listSalesAgents",
  summary: "List sales agents",
  description: "Sales agents by id, a page at a time; their ids are what POST /customers/create takes as salesagent_id.",
  request: { query: z.object(pagingQuery).superRefine(skipOrPage, EVEN_AFTER_ERRORS) },
  responses: {
    200: {
      description: "A page of sales agents",
      content: {
        "application/json": {
          schema: z.object({
            data: z.object({ salesagents: z.array(OrderSalesAgentSchema), pagination: PaginationSchema }),
          }),
        },
      },
    },
    ...commonErrorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const scope = listingScope("salesagents");
  const page = requestedPage(c.req.valid("query"), scope);
  const { rows, total } = await listSalesAgents(c.get("services").db, page);
  const salesagents = rows.map(toSalesAgent);
  const carried = carriedParams((n) => c.req.query(n), ["count"]);
  const pagination = paginationOf(c.req.url, page, total, carried, salesagents, (row) => ({ id: row.id }), scope);
  return c.json({ data: { salesagents, pagination } }, 200);
};
