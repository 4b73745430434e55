import { z, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { etag } from "hono/etag";
import type { AppEnv } from "../env.ts";
import { listAreas } from "../db/lookups.ts";
import { authErrorResponses, cachedLookupHeaders, notModifiedResponse } from "../schemas/common.ts";
import { AreaSchema } from "../schemas/lookups.ts";
import { toArea } from "../lookups/answer.ts";
import { cachedJson } from "./cached-json.ts";
import { apiRoute } from "./router.ts";

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
