// GET /healthz: the deployment's version and mode, from the runtime alone (no D1, no KV).
import type { RouteHandler } from "@hono/zod-openapi";
import { version as packageVersion } from "../../package.json";
import type { AppEnv } from "../env.ts";
import { requireDeploymentMode } from "../access/access.auth.ts";
import type * as routes from "./health.routes.ts";

export const health: RouteHandler<typeof routes.health, AppEnv> = (c) => {
  const mode = requireDeploymentMode(c);
  // Optional at runtime: an isolate built from another config (a test's own bindings) may lack it.
  const metadata: WorkerVersionMetadata | undefined = c.env.CF_VERSION_METADATA;
  c.header("Cache-Control", "no-store");
  return c.json({ status: "ok" as const, version: metadata?.id || packageVersion, mode }, 200);
};
