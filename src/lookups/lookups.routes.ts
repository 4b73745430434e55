import { z, type RouteHandler } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "../platform/env.ts";
import { salesAgentsByPincode, listAreas, listPostalCodes, listSalesAgents } from "./lookups.queries.ts";
import { isPincode } from "../platform/lib/pincode.ts";
import { commonErrorResponses, authErrorResponses } from "../platform/errors.ts";
import { headerRef } from "../platform/response-headers.ts";
import { PincodeSalesAgentSchema, AreaSchema, PostalCodeSchema } from "./lookups.schemas.ts";
import { toPincodeSalesAgent, toArea, toPostalCode, toSalesAgent } from "./lookups.serialize.ts";
import { queryString, EVEN_AFTER_ERRORS, pagingQuery, skipOrPage } from "../platform/paging/query-params.ts";
import { cachedJson } from "./lookups.handlers.ts";
import { apiRoute } from "../platform/route.ts";
import type { Context } from "hono";
import { carriedParams, PaginationSchema } from "../platform/paging/pagination.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { OrderSalesAgentSchema } from "../orders/orders.schemas.ts";

/** The headers of a cached lookup's 200: its ETag, and who may keep it. */
const cachedLookupHeaders = {
  ETag: headerRef("ETag"),
  "Cache-Control": {
    description: "The caller may keep the answer but must revalidate it (If-None-Match); no shared cache may keep it.",
    required: true,
    schema: { type: "string", const: "private, no-cache" },
  },
} as const;

/** A cached lookup's answer to a matching If-None-Match. */
const notModifiedResponse = {
  description: "Not modified: If-None-Match matched the answer's ETag. No body.",
  headers: { ETag: headerRef("ETag") },
} as const;

export const pincodeParam = queryString().refine(isPincode, {
  error: "must be a 6-digit PIN code that does not start with 0",
});

const PincodeAnswerSchema = z.object({ data: z.array(PincodeSalesAgentSchema), message: z.string() });

export const route = apiRoute({
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

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { pincode } = c.req.valid("query");
  return cachedJson(
    c,
    `pincode:${pincode}`,
    async (): Promise<z.infer<typeof PincodeAnswerSchema>> => {
      const data = (await salesAgentsByPincode(c.get("services").db, pincode)).map(toPincodeSalesAgent);
      return { data, message: data.length ? "" : `No sales agent serves pincode ${pincode}` };
    },
    (answer) => answer.data.length > 0,
  );
};

// ---- merged from src/routes/areas.list.ts (restructure: tidy by hand) ----
const AreasAnswerSchema = z.object({ data: z.array(AreaSchema) });
type AreasAnswer = z.infer<typeof AreasAnswerSchema>;

/**
 * GET /area, and GET /areas: the published sample request uses /areas for the same endpoint.
 * Operation ids are unique, so the alias's generated client method is listAreasAlias.
 */
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

export const route = areasRoute("/area", "listAreas");
export const aliasRoute = areasRoute("/areas", "listAreasAlias");

const answer = (c: Context<AppEnv>) =>
  cachedJson(c, "areas", async (): Promise<AreasAnswer> => ({ data: (await listAreas(c.get("services").db)).map(toArea) }));

// One handler for each path: the router takes a route's path (and so the client's) from its handler's type.
export const handler: RouteHandler<typeof route, AppEnv> = answer;
export const aliasHandler: RouteHandler<typeof aliasRoute, AppEnv> = answer;

// ---- merged from src/routes/postalcodes.list.ts (restructure: tidy by hand) ----
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

// ---- merged from src/routes/salesagents.list.ts (restructure: tidy by hand) ----
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
