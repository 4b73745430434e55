// GET /healthz, the one endpoint made with plain createRoute: it answers without a key, so it must
// read no data (test/platform/auth.test.ts checks that nothing else answers without one).
import { createRouter } from "../access/access.route.ts";
import * as handlers from "./health.handlers.ts";
import * as routes from "./health.routes.ts";

export const health = createRouter().openapi(routes.health, handlers.health);
