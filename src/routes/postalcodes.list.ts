import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { listPostalCodes } from "../db/lookups.ts";
import { carriedParams } from "../lib/pagination.ts";
import { commonErrorResponses, PaginationSchema } from "../schemas/common.ts";
import { PostalCodeSchema } from "../schemas/lookups.ts";
import { toPostalCode } from "../lookups/answer.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, skipOrPage } from "../schemas/params.ts";
import { listingScope, paginationOf, requestedPage } from "./paging.ts";
import { pincodeParam } from "./salesagents.by-pincode.ts";
import { apiRoute } from "./router.ts";

export const route = apiRoute({
  method: "get",
  scope: "read",
  path: "/postalcodes",
  tags: ["Lookups"],
  operationId: "listPostalCodes",
  summary: "List postal codes",
  description: "Postal codes by id, a page at a time; their ids are what POST /customers/create takes as postalcode_id.",
  request: {
    query: z
      .object({
        code: pincodeParam
          .optional()
          .openapi({
            param: { description: "Only the records of this 6-digit PIN code" },
            example: "400069",
            type: "string",
            pattern: "^[1-9][0-9]{5}$",
          }),
        ...pagingQuery,
      })
      .superRefine(skipOrPage, EVEN_AFTER_ERRORS),
  },
  responses: {
    200: {
      description: "A page of postal codes",
      content: {
        "application/json": {
          schema: z.object({
            data: z.object({
              postalcodes: z.array(PostalCodeSchema),
              pagination: PaginationSchema,
            }),
          }),
        },
      },
    },
    ...commonErrorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  const scope = listingScope("postalcodes", { code: q.code ?? null });
  const page = requestedPage(q, scope);
  const { rows, total } = await listPostalCodes(c.get("services").db, page, q.code);
  const postalcodes = rows.map(toPostalCode);
  const carried = carriedParams((n) => c.req.query(n), ["count", "code"]);
  const pagination = paginationOf(c.req.url, page, total, carried, postalcodes, (row) => ({ id: row.id }), scope);
  return c.json({ data: { postalcodes, pagination } }, 200);
};
