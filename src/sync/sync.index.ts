// The sync endpoint: GET /sync (docs/specification.md section 8).
import { createRouter } from "../access/access.route.ts";
import * as handlers from "./sync.handlers.ts";
import * as routes from "./sync.routes.ts";

export const sync = createRouter().openapi(routes.sync, handlers.sync, (result, c) =>
  result.success ? undefined : handlers.invalid(result.error, c),
);
