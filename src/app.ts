// The app: global middleware, the API (under /api and at the root), documents, admin side, error answers.
import { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { adminRoutes } from "./admin/admin.routes.ts";
import { API_PREFIX, api } from "./api.ts";
import { dashboardApp } from "./dashboard/dashboard.index.tsx";
import { enrollAdminRoutes } from "./enroll/enroll.admin.routes.ts";
import { fieldApp } from "./fieldapp/fieldapp.index.ts";
import { mountDocs } from "./openapi/openapi.index.ts";
import type { AppEnv } from "./env.ts";
import { notFoundHandler, onError, validationHook } from "./platform/errors.ts";
import { cacheControl } from "./platform/middleware/cache-control.ts";
import { corsForOrigins } from "./platform/middleware/cors.ts";
import { requestLog } from "./platform/middleware/request-log.ts";
import { apiSecureHeaders } from "./platform/middleware/secure-headers.ts";
import { services } from "./services.ts";
import { serverTiming } from "./platform/middleware/timing.ts";

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(requestId(), requestLog, cacheControl, serverTiming, apiSecureHeaders, corsForOrigins, services);
  app.route(API_PREFIX, api);
  // The root mount goes through a plain Hono so that the OpenAPI document lists the /api paths once.
  app.route("/", new Hono<AppEnv>().route("/", api));
  // Public: they describe the API and serve none of its data.
  mountDocs(app);
  // The administrator's side takes the admin token or its session, not API keys.
  app.route("/", adminRoutes);
  app.route("/", enrollAdminRoutes);
  app.route("/", dashboardApp);
  // The field app's files (page, script, styles, manifest, icons, service worker).
  app.route("/", fieldApp);

  // The 405 answer needs every served path: the API's at both mounts, the admin API's once (no /api alias).
  app.notFound(
    notFoundHandler([
      ...api.routes.flatMap((r) => [r, { method: r.method, path: `${API_PREFIX}${r.path}` }]),
      ...adminRoutes.routes,
      ...enrollAdminRoutes.routes,
    ]),
  );
  app.onError(onError);
  return app;
}
