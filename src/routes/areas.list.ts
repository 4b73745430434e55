import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "../env.ts";
import { listAreas } from "../db/lookups.ts";
import { commonErrorResponses } from "../schemas/common.ts";
import { cachedJson } from "./cached-json.ts";

const AreaSchema = z.object({ id: z.number().int(), name: z.string(), city_id: z.number().int() }).openapi("Area");

export const route = createRoute({
  method: "get",
  path: "/area",
  tags: ["Lookups"],
  summary: "List areas",
  description: "Every area of the organization, by id. Also served at /areas. Cached; answers carry an ETag.",
  security: [{ bearerAuth: [] }],
  middleware: [etag()] as const,
  responses: {
    200: {
      description: "All areas",
      headers: z.object({ ETag: z.string() }),
      content: { "application/json": { schema: z.object({ data: z.array(AreaSchema) }) } },
    },
    304: { description: "Not modified (If-None-Match matched the ETag)" },
    ...commonErrorResponses,
  },
});

/** The published sample request uses /areas: the same endpoint. */
export const aliasRoute = createRoute({ ...route, path: "/areas" });

export const handler: RouteHandler<typeof route, AppEnv> = (c) =>
  cachedJson(c, "areas", async () => ({ data: await listAreas(c.get("services").db) }));
