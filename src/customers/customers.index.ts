// The customers' endpoints in the document's order; POST /customers/create is served without its body,
// which its handler reads itself.
import { createRouter, servedWithoutBody } from "../access/access.route.ts";
import * as createHandlers from "./create/create.handlers.ts";
import * as createRoutes from "./create/create.routes.ts";
import * as handlers from "./customers.handlers.ts";
import * as routes from "./customers.routes.ts";

const router = createRouter();

export const customers = router
  .openapi(routes.list, handlers.list)
  .openapi(servedWithoutBody(router, createRoutes.create), createHandlers.create);
