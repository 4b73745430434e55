// GET /customers, as the document describes it: its query and its answers.
import { z } from "@hono/zod-openapi";
import { commonErrorResponses } from "../platform/errors.ts";
import { PaginationSchema } from "../platform/paging/pagination.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, skipOrPage } from "../platform/paging/query-params.ts";
import { apiRoute } from "../access/access.route.ts";
import { CustomerSchema } from "./customers.schemas.ts";

export const list = apiRoute({
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
