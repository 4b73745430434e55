// GET /customers: a page of the customers that the request's key may see.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../platform/env.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { carriedParams } from "../platform/paging/pagination.ts";
import { listCustomers } from "./customers.queries.ts";
import type * as routes from "./customers.routes.ts";
import { toCustomer } from "./customers.serialize.ts";

export const list: RouteHandler<typeof routes.list, AppEnv> = async (c) => {
  // An agent-bound key sees its agent's customers only: the query is restricted, and so is the cursor.
  const agent = c.get("apiKey")!.agent_id;
  const scope = listingScope("customers", {}, agent);
  const page = requestedPage(c.req.valid("query"), scope);
  const { rows, total } = await listCustomers(c.get("services").db, page, agent);
  const customers = rows.map(toCustomer);
  const carried = carriedParams((n) => c.req.query(n), ["count"]);
  const pagination = paginationOf(c.req.url, page, total, carried, customers, (row) => ({ id: row.id }), scope);
  return c.json({ data: { customers, pagination } }, 200);
};
