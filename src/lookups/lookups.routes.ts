// The lookups' routes; the two cached ones answer with an ETag and 304 (hono's etag()).
import { z } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import { OrderSalesAgentSchema } from "../orders/orders.schemas.ts";
import { authErrorResponses, commonErrorResponses } from "../platform/errors.ts";
import { isPincode } from "../platform/lib/pincode.ts";
import { PaginationSchema } from "../platform/paging/pagination.ts";
import { EVEN_AFTER_ERRORS, pagingQuery, queryString, skipOrPage } from "../platform/paging/query-params.ts";
import { headerRef } from "../platform/response-headers.ts";
import { apiRoute } from "../access/access.route.ts";
import { AreasAnswerSchema, PincodeAnswerSchema, PostalCodeSchema } from "./lookups.schemas.ts";

const cachedLookupHeaders = {
  ETag: headerRef("ETag"),
  "Cache-Control": {
    description: "The caller may keep the answer but must revalidate it (If-None-Match); no shared cache may keep it.",
    required: true,
    schema: { type: "string", const: "private, no-cache" },
  },
} as const;

const notModifiedResponse = {
  description: "Not modified: If-None-Match matched the answer's ETag. No body.",
  headers: { ETag: headerRef("ETag") },
} as const;

const pincodeParam = queryString().refine(isPincode, {
  error: "must be a 6-digit PIN code that does not start with 0",
});

export const pincode = apiRoute({
  method: "get",
  scope: "read",
  path: "/fetch-salesagent-by-pincode",
  tags: ["Lookups"],
  operationId: "listSalesAgentsByPincode",
  summary: "Sales agents serving a pincode",
  description: "The sales agents who serve a 6-digit PIN code, by id. Cached; answers carry an ETag.",
  middleware: [etag()] as const,
  request: {
    query: z.object({
      pincode: pincodeParam.openapi({
        param: { description: "6-digit PIN code; the first digit is not 0" },
        example: "400069",
        type: "string",
        pattern: "^[1-9][0-9]{5}$",
      }),
    }),
  },
  responses: {
    200: {
      description: "The agents (possibly none, with a message saying so)",
      headers: cachedLookupHeaders,
      content: {
        "application/json": { schema: PincodeAnswerSchema },
      },
    },
    304: notModifiedResponse,
    ...commonErrorResponses,
  },
});

// GET /areas too, as the published sample request uses it (its client method: listAreasAlias).
const areasRoute = <const P extends string, const O extends string>(path: P, operationId: O) =>
  apiRoute({
    method: "get",
    scope: "read",
    path,
    tags: ["Lookups"],
    operationId,
    summary: "List areas",
    description: "Every area of the organization, by id. Also served at /areas. Cached; answers carry an ETag.",
    middleware: [etag()] as const,
    responses: {
      200: {
        description: "All areas",
        headers: cachedLookupHeaders,
        content: { "application/json": { schema: AreasAnswerSchema } },
      },
      304: notModifiedResponse,
      // No 422: the endpoint takes no parameters, and ignores any it is given.
      ...authErrorResponses,
    },
  });

export const areas = areasRoute("/area", "listAreas");
export const areasAlias = areasRoute("/areas", "listAreasAlias");

export const postalcodes = apiRoute({
  method: "get",
  scope: "read",
  path: "/postalcodes",
  tags: ["Lookups"],
  operationId: "listPostalCodes",
  summary: "List postal codes",
  description:
    "Postal codes by id, a page at a time; their ids are what POST /customers/create takes as postalcode_id.",
  request: {
    query: z
      .object({
        code: pincodeParam.optional().openapi({
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

export const salesagents = apiRoute({
  method: "get",
  scope: "read",
  path: "/salesagents",
  tags: ["Lookups"],
  operationId: "listSalesAgents",
  summary: "List sales agents",
  description:
    "Sales agents by id, a page at a time; their ids are what POST /customers/create takes as salesagent_id.",
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
