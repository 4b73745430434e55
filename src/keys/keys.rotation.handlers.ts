// POST /keys/rotate: the body's grace, then the key store's rotate with the caller's own secret.
import type { RouteHandler } from "@hono/zod-openapi";
import { readJsonBody } from "../admin/admin.body.ts";
import type { AppEnv } from "../platform/env.ts";
import { ApiError, errors, type FieldError } from "../platform/errors.ts";
import { bearerToken } from "../platform/lib/bearer.ts";
import { checkRotationGrace } from "./keys.rotation.ts";
import type * as routes from "./keys.rotation.routes.ts";

export const rotate: RouteHandler<typeof routes.rotate, AppEnv> = async (c) => {
  const grace = readGrace(await readJsonBody(c));
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

/** `{"grace"?}` only: one 422 lists an unknown field with a bad grace. */
function readGrace(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.validation([{ field: "request", message: "must be a JSON object" }]);
  }
  const { grace, ...others } = body as { grace?: unknown };
  const problems: FieldError[] = [];
  try {
    checkRotationGrace(grace);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    problems.push(...(err.options.fields ?? []));
  }
  const unknown = Object.keys(others);
  if (unknown.length > 0) problems.push({ field: "request", message: `has unknown field(s): ${unknown.join(", ")}` });
  if (problems.length > 0) throw errors.validation(problems);
  return grace as number | undefined;
}
