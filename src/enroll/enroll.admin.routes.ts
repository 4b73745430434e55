// The admin API's enrollment codes (section 9): make (shown once), list, revoke; all behind adminAnswering().
import { z, type RouteHandler } from "@hono/zod-openapi";
import { readJsonObject } from "../platform/middleware/json-body.ts";
import { ADMIN_API, adminAnswering, createAdminRouter, idParam } from "../admin/admin.router.ts";
import type { AppEnv } from "../env.ts";
import { errors } from "../platform/errors.ts";
import { queryString } from "../platform/paging/query-params.ts";
import { CODE_ID_PATTERN, enrollmentsFor } from "./enroll.codes.ts";

const create = adminAnswering("post", "/admin/enrollments", 201, "The new enrollment code, shown this once");

/** Codes on one page of GET /admin/enrollments; the next page is in the answer's Link header. */
export const ADMIN_CODES_PAGE_SIZE = 50;

const list = adminAnswering(
  "get",
  "/admin/enrollments",
  200,
  `The newest ${ADMIN_CODES_PAGE_SIZE} enrollment codes (older than the code \`before\` when given), newest first, ` +
    'without their codes; a `Link` header (rel="next") gives the next page when older codes exist',
  { query: z.object({ before: queryString().optional() }) },
);

const revoke = adminAnswering("post", "/admin/enrollments/{id}/revoke", 200, "The revoked enrollment code", idParam);

const createHandler: RouteHandler<typeof create, AppEnv> = async (c) => {
  const made = await enrollmentsFor(c.get("services")).create(await readJsonObject(c), ADMIN_API);
  return c.json({ data: made }, 201);
};

// Keyset pages (docs/specification.md section 9): each reads one page of the (created_at, id) index.
const listHandler: RouteHandler<typeof list, AppEnv> = async (c) => {
  const before = c.req.valid("query").before ?? null;
  if (before !== null && !CODE_ID_PATTERN.test(before)) {
    throw errors.validation([{ field: "before", message: "must be an enrollment code's id" }]);
  }
  const { codes, older } = await enrollmentsFor(c.get("services")).listPage(before, ADMIN_CODES_PAGE_SIZE);
  if (older !== null) c.header("Link", `</admin/enrollments?before=${older}>; rel="next"`);
  return c.json({ data: codes }, 200);
};

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
