// The lookups' endpoints, in the document's order.
import { createRouter } from "../access/access.route.ts";
import * as handlers from "./lookups.handlers.ts";
import * as routes from "./lookups.routes.ts";

export const lookups = createRouter()
  .openapi(routes.pincode, handlers.pincode)
  .openapi(routes.areas, handlers.areas)
  .openapi(routes.areasAlias, handlers.areasAlias)
  .openapi(routes.postalcodes, handlers.postalcodes)
  .openapi(routes.salesagents, handlers.salesagents);
