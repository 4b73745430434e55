// The JSON admin API: keys, their audit log and the sales agents; a body is a JSON object by zod (JsonObjectSchema),
// its key fields judged by the key store alone.
import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { queryString } from "../platform/paging/query-params.ts";
import { readJsonObject } from "../platform/middleware/json-body.ts";
import { auditEntries, createKey, listKeysWithUsage, requestRotation, revokeKey, rollKey } from "./admin.keys.ts";
import { ADMIN_API, adminAnswering, createAdminRouter, idParam } from "./admin.router.ts";
import { AGENT_QUERY_RULE, findAgents, MAX_AGENT_QUERY_LENGTH } from "./admin.salesagents.ts";

const listKeys = adminAnswering("get", "/admin/keys", 200, "Every key, oldest first, with its use");

const audit = adminAnswering("get", "/admin/audit", 200, "The newest audit entries, newest first", {
  // The key store judges the limit (a 422 on limit): one value, as text.
  query: z.object({ limit: queryString().optional() }),
});

const salesagents = adminAnswering("get", "/admin/salesagents", 200, "The sales agents found", {
  query: z.object({ q: queryString().max(MAX_AGENT_QUERY_LENGTH, { error: AGENT_QUERY_RULE }).optional() }),
});

const create = adminAnswering("post", "/admin/keys", 201, "The new key, with its secret");

const roll = adminAnswering("post", "/admin/keys/{id}/roll", 201, "The replacement key, with its secret", idParam);

const revoke = adminAnswering("post", "/admin/keys/{id}/revoke", 200, "The revoked key", idParam);

const rotation = adminAnswering("post", "/admin/keys/rotation", 200, "How many active keys were marked rotation due");

const listKeysHandler: RouteHandler<typeof listKeys, AppEnv> = async (c) =>
  c.json({ data: await listKeysWithUsage(c.get("services").keys) }, 200);

const auditHandler: RouteHandler<typeof audit, AppEnv> = async (c) =>
  c.json({ data: await auditEntries(c.get("services").keys, c.req.valid("query").limit) }, 200);

const salesagentsHandler: RouteHandler<typeof salesagents, AppEnv> = async (c) =>
  c.json({ data: await findAgents(c.get("services").db, c.req.valid("query").q) }, 200);

const createHandler: RouteHandler<typeof create, AppEnv> = async (c) =>
  c.json({ data: await createKey(c.get("services").keys, await readJsonObject(c), ADMIN_API) }, 201);

const rollHandler: RouteHandler<typeof roll, AppEnv> = async (c) =>
  c.json(
    { data: await rollKey(c.get("services").keys, c.req.valid("param").id, await readJsonObject(c), ADMIN_API) },
    201,
  );

const rotationHandler: RouteHandler<typeof rotation, AppEnv> = async (c) =>
  c.json({ data: await requestRotation(c.get("services").keys, await readJsonObject(c), ADMIN_API) }, 200);

const revokeHandler: RouteHandler<typeof revoke, AppEnv> = async (c) =>
  c.json({ data: await revokeKey(c.get("services").keys, c.req.valid("param").id, ADMIN_API) }, 200);

/** Its 404 and 405 answers come from the app's route table (src/app.ts); it has no /api alias. */
export const adminRoutes = createAdminRouter()
  .openapi(listKeys, listKeysHandler)
  .openapi(create, createHandler)
  .openapi(rotation, rotationHandler)
  .openapi(roll, rollHandler)
  .openapi(revoke, revokeHandler)
  .openapi(audit, auditHandler)
  .openapi(salesagents, salesagentsHandler);
