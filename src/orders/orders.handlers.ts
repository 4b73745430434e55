// GET /orders: a page of the orders of the customer with this phone number.
import type { RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { errors } from "../platform/errors.ts";
import { jsonTextAnswer } from "../platform/json-text.ts";
import { listingScope, paginationOf, requestedPage } from "../platform/paging/listing.ts";
import { carriedParams } from "../platform/paging/pagination.ts";
import { findOrdersByPhone } from "./orders.queries.ts";
import type * as routes from "./orders.routes.ts";

type Answer = z.infer<(typeof routes.list.responses)[200]["content"]["application/json"]["schema"]>;

export const list: RouteHandler<typeof routes.list, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  // The filters as normalized: the same customer and dates however the request wrote them.
  // An agent-bound key finds the number among its agent's customers only; the cursor carries the agent.
  const agent = c.get("apiKey")!.agent_id;
  const scope = listingScope(
    "orders",
    { phone: q.phone_number, from: q.from_date ?? null, to: q.to_date ?? null },
    agent,
  );
  const page = requestedPage(q, scope);
  const found = await findOrdersByPhone(
    c.get("services").db,
    { phoneKey: q.phone_number, from: q.from_date, to: q.to_date, agentId: agent },
    page,
  );
  if (!found) throw errors.notFound("No customer has this phone number");
  const carried = carriedParams((n) => c.req.query(n), ["count", "phone_number", "from_date", "to_date"]);
  const pagination = paginationOf(
    c.req.url,
    page,
    found.total,
    carried,
    found.keys,
    ([date, id]) => ({ date, id }),
    scope,
  );
  return jsonTextAnswer<Answer>(c, `{"data":{"orders":${found.orders},"pagination":${JSON.stringify(pagination)}}}`);
};
