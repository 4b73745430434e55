// GET /customers: a page of the customers that the request's key may see.
import type { RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonTextAnswer } from "../platform/json-text.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { carriedParams } from "../platform/paging/pagination.ts";
import { listCustomers } from "./customers.queries.ts";
import type * as routes from "./customers.routes.ts";

type Answer = z.infer<(typeof routes.list.responses)[200]["content"]["application/json"]["schema"]>;

export const list: RouteHandler<typeof routes.list, AppEnv> = async (c) => {
  // An agent-bound key sees its agent's customers only: the query is restricted, and so is the cursor.
  const agent = c.get("apiKey")!.agent_id;
  const scope = listingScope("customers", {}, agent);
  const page = requestedPage(c.req.valid("query"), scope);
  const { customers, ids, total } = await listCustomers(c.get("services").db, page, agent);
  const carried = carriedParams((n) => c.req.query(n), ["count"]);
  const pagination = paginationOf(c.req.url, page, total, carried, ids, (id) => ({ id }), scope);
  return jsonTextAnswer<Answer>(c, `{"data":{"customers":${customers},"pagination":${JSON.stringify(pagination)}}}`);
};
