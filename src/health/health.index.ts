// GET /healthz, the one plain createRoute: it answers without a key, so it reads no data (test/platform/auth.test.ts).
import { createRouter } from "../access/access.route.ts";
import * as handlers from "./health.handlers.ts";
import * as routes from "./health.routes.ts";

export const health = createRouter().openapi(routes.health, handlers.health);
