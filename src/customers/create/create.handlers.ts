// POST /customers/create: hands the request to the domain (create.steps.ts), once, and sends its
// answer or the first answer again.
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { AppEnv } from "../../env.ts";
import type { FirstAnswer } from "./create.found.ts";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "./create.idempotency.ts";
import type * as routes from "./create.routes.ts";
import type { CreatedAnswer } from "./create.serialize.ts";
import { createCustomer } from "./create.steps.ts";

export const create: RouteHandler<typeof routes.create, AppEnv> = async (c) => {
  const outcome = await createCustomer(c.get("services"), c.get("apiKey")!, {
    query: c.req.queries(),
    contentType: c.req.header("Content-Type"),
    body: await c.req.arrayBuffer(),
    idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
  });
  if (outcome.kind === "replay") return replay(c, outcome.first);
  return c.json(outcome.answer, 201);
};

// Byte for byte the text c.json sent for a CreatedAnswer (create.serialize.ts keeps the two the same);
// stored text has no type of its own, so this is where it is given the 201's.
function replay(c: Context<AppEnv>, stored: FirstAnswer) {
  const res = c.body(stored.body, stored.status as 201, {
    "Content-Type": "application/json",
    [REPLAYED_HEADER]: "true",
  });
  return res as Response as Response & TypedResponse<JSONParsed<CreatedAnswer>, 201, "json">;
}
