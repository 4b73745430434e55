// POST /keys/rotate: the key store's rotate with the caller's own secret and the body's grace.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { bearerToken } from "../platform/lib/bearer.ts";
import type * as routes from "./keys.rotation.routes.ts";

export const rotate: RouteHandler<typeof routes.rotate, AppEnv> = async (c) => {
  const { grace } = c.req.valid("json");
  // Authentication (before this handler) accepted exactly this header.
  const secret = bearerToken(c.req.header("Authorization")!)!;
  const rotated = await c.get("services").keys.rotate(c.get("apiKey")!, secret, grace);
  const { record } = rotated;
  const data = {
    id: record.id,
    name: record.name,
    mode: record.mode,
    prefix: record.prefix,
    created_at: record.created_at,
    expires_at: record.expires_at,
    scopes: record.scopes,
    agent_id: record.agent_id,
    replaces: record.replaces!,
    secret: rotated.secret,
  };
  return rotated.created ? c.json({ data }, 201) : c.json({ data }, 200);
};
