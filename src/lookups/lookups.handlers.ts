// The lookups' handlers; cached bodies go out as is, so cached and fresh answers match and etag() can answer 304.
import type { RouteHandler, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { carriedParams } from "../platform/paging/pagination.ts";
import { listAreas, listPostalCodes, listSalesAgents, salesAgentsByPincode } from "./lookups.queries.ts";
import type * as routes from "./lookups.routes.ts";
import type { AreasAnswerSchema, PincodeAnswerSchema } from "./lookups.schemas.ts";
import { toArea, toPincodeSalesAgent, toPostalCode, toSalesAgent } from "./lookups.serialize.ts";

/** Bump when the shape of a cached answer changes, so that no old shape is served after a deploy. */
const CACHE_FORMAT = "v1";

/** An answer that found nothing (a pincode nobody serves) is kept only in the isolate, never in KV. */
async function cachedJson<T>(
  c: Context<AppEnv>,
  key: string,
  load: () => Promise<T>,
  found: (answer: T) => boolean = () => true,
) {
  const { body, etag } = await c.get("services").cache.get(`${CACHE_FORMAT}:${key}`, async () => {
    const answer = await load();
    return { body: JSON.stringify(answer), negative: !found(answer) };
  });
  return c.body(body, 200, {
    "Content-Type": "application/json",
    ETag: etag,
    // Clients may keep it but must revalidate; shared caches must not keep an authenticated answer.
    "Cache-Control": "private, no-cache",
  });
}

export const pincode: RouteHandler<typeof routes.pincode, AppEnv> = async (c) => {
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

const allAreas = (c: Context<AppEnv>) =>
  cachedJson(c, "areas", async (): Promise<z.infer<typeof AreasAnswerSchema>> => ({
    data: (await listAreas(c.get("services").db)).map(toArea),
  }));

// One handler for each path: the router takes a route's path (and so the client's) from its handler's type.
export const areas: RouteHandler<typeof routes.areas, AppEnv> = allAreas;
export const areasAlias: RouteHandler<typeof routes.areasAlias, AppEnv> = allAreas;

export const postalcodes: RouteHandler<typeof routes.postalcodes, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  const scope = listingScope("postalcodes", { code: q.code ?? null });
  const page = requestedPage(q, scope);
  const { rows, total } = await listPostalCodes(c.get("services").db, page, q.code);
  const postalcodes = rows.map(toPostalCode);
  const carried = carriedParams((n) => c.req.query(n), ["count", "code"]);
  const pagination = paginationOf(c.req.url, page, total, carried, postalcodes, (row) => ({ id: row.id }), scope);
  return c.json({ data: { postalcodes, pagination } }, 200);
};

export const salesagents: RouteHandler<typeof routes.salesagents, AppEnv> = async (c) => {
  const scope = listingScope("salesagents");
  const page = requestedPage(c.req.valid("query"), scope);
  const { rows, total } = await listSalesAgents(c.get("services").db, page);
  const salesagents = rows.map(toSalesAgent);
  const carried = carriedParams((n) => c.req.query(n), ["count"]);
  const pagination = paginationOf(c.req.url, page, total, carried, salesagents, (row) => ({ id: row.id }), scope);
  return c.json({ data: { salesagents, pagination } }, 200);
};
