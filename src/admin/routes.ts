// The JSON admin API for keys (list with usage, create, roll, revoke), their audit log and the sales
// agents a key can be bound to, for the dashboard's administrator and for scripts. Not part of the API registry: it takes the administrator credential, not API keys.
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { errors } from "../lib/errors.ts";
import { adminAuth } from "./auth.ts";
import { limitBody } from "../middleware/body-limit.ts";
import { readJsonBody } from "./body.ts";
import { auditEntries, createKey, listKeysWithUsage, revokeKey, rollKey } from "./keys.ts";
import { findAgents } from "./salesagents.ts";

export const adminRoutes = new Hono<AppEnv>();

/** Who the key audit log names for changes made here. */
const ADMIN_API = { actor: "admin-api" } as const;

// Authentication first (before the method, the body or the id is looked at), then the size limit.
adminRoutes.use("/admin/*", adminAuth, limitBody, async (c, next) => {
  await next();
  // New secrets travel in these answers: no cache may keep them.
  c.header("Cache-Control", "no-store");
});

adminRoutes.get("/admin/keys", async (c) => c.json({ data: await listKeysWithUsage(c.get("services").keys) }));

adminRoutes.get("/admin/audit", async (c) => c.json({ data: await auditEntries(c.get("services").keys, c.req.query("limit")) }));

adminRoutes.get("/admin/salesagents", async (c) => c.json({ data: await findAgents(c.get("services").db, c.req.query("q")) }));

adminRoutes.post("/admin/keys", async (c) => {
  return c.json({ data: await createKey(c.get("services").keys, await readJsonBody(c), ADMIN_API) }, 201);
});

adminRoutes.post("/admin/keys/:id/roll", async (c) => {
  return c.json({ data: await rollKey(c.get("services").keys, c.req.param("id"), await readJsonBody(c), ADMIN_API) }, 201);
});

adminRoutes.post("/admin/keys/:id/revoke", async (c) => {
  return c.json({ data: await revokeKey(c.get("services").keys, c.req.param("id"), ADMIN_API) });
});

adminRoutes.all("/admin/keys", (c) => {
  throw errors.methodNotAllowed(c.req.method, ["GET", "HEAD", "POST"]);
});
adminRoutes.all("/admin/audit", (c) => {
  throw errors.methodNotAllowed(c.req.method, ["GET", "HEAD"]);
});
adminRoutes.all("/admin/salesagents", (c) => {
  throw errors.methodNotAllowed(c.req.method, ["GET", "HEAD"]);
});
adminRoutes.all("/admin/keys/:id/roll", (c) => {
  throw errors.methodNotAllowed(c.req.method, ["POST"]);
});
adminRoutes.all("/admin/keys/:id/revoke", (c) => {
  throw errors.methodNotAllowed(c.req.method, ["POST"]);
});
