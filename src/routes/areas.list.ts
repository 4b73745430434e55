import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "../env.ts";
import { listAreas } from "../db/lookups.ts";
import { authErrorResponses, cachedLookupHeaders, notModifiedResponse } from "../schemas/common.ts";
import { areaExample } from "../schemas/examples.ts";
import { cachedJson } from "./cached-json.ts";

const AreaSchema = z.object({ id: z.number().int(), name: z.string(), city_id: z.number().int() }).openapi("Area", { example: areaExample });

export const route = createRoute({
  method: "get",
  path: "/area",
  tags: ["Lookups"],
  operationId: "listAreas",
  summary: "List areas",
  description: "Every area of the organization, by id. Also served at /areas. Cached; answers carry an ETag.",
  security: [{ bearerAuth: [] }],
  middleware: [etag()] as const,
  responses: {
    200: {
      description: "All areas",
      headers: cachedLookupHeaders,
      content: { "application/json": { schema: z.object({ data: z.array(AreaSchema) }) } },
    },
    304: notModifiedResponse,
    // No 422: the endpoint takes no parameters, and ignores any it is given.
    ...authErrorResponses,
  },
});

/**
 * The published sample request uses /areas: the same endpoint. Operation ids are unique, so its
 * generated client method is listAreasAlias.
 */
export const aliasRoute = createRoute({ ...route, path: "/areas", operationId: "listAreasAlias" });

export const handler: RouteHandler<typeof route, AppEnv> = (c) =>
  cachedJson(c, "areas", async () => ({ data: await listAreas(c.get("services").db) }));
