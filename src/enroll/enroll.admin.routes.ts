// The admin API's enrollment codes (docs/specification.md section 9): make one (201, its code shown this once),
// list them without their codes, revoke one still pending. Through adminAnswering() (adminRoute()), so none
// answers without the administrator's authentication.
import type { RouteHandler } from "@hono/zod-openapi";
import { readJsonBody } from "../admin/admin.body.ts";
import { ADMIN_API, adminAnswering, createAdminRouter, idParam } from "../admin/admin.router.ts";
import type { AppEnv } from "../platform/env.ts";
import { errors } from "../platform/errors.ts";
import { CODE_ID_PATTERN, enrollmentsFor } from "./enroll.codes.ts";

const create = adminAnswering("post", "/admin/enrollments", 201, "The new enrollment code, shown this once");

const list = adminAnswering("get", "/admin/enrollments", 200, "Every enrollment code, newest first, without its code");

const revoke = adminAnswering("post", "/admin/enrollments/{id}/revoke", 200, "The revoked enrollment code", idParam);

const createHandler: RouteHandler<typeof create, AppEnv> = async (c) => {
  const body = await readJsonBody(c);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.validation([{ field: "request", message: "must be a JSON object" }]);
  }
  const made = await enrollmentsFor(c.get("services")).create(body as Record<string, unknown>, ADMIN_API);
  return c.json({ data: made }, 201);
};

const listHandler: RouteHandler<typeof list, AppEnv> = async (c) =>
  c.json({ data: await enrollmentsFor(c.get("services")).list() }, 200);

const revokeHandler: RouteHandler<typeof revoke, AppEnv> = async (c) => {
  const id = c.req.valid("param").id;
  const revoked = await enrollmentsFor(c.get("services")).revoke(id, ADMIN_API);
  if (!revoked) {
    throw errors.notFound(
      CODE_ID_PATTERN.test(id) ? `No enrollment code with id ${id}` : "No enrollment code with that id",
    );
  }
  return c.json({ data: revoked }, 200);
};

export const enrollAdminRoutes = createAdminRouter()
  .openapi(create, createHandler)
  .openapi(list, listHandler)
  .openapi(revoke, revokeHandler);
