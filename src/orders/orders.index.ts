// The orders' endpoint: GET /orders.
import { createRouter } from "../access/access.route.ts";
import * as handlers from "./orders.handlers.ts";
import * as routes from "./orders.routes.ts";

export const orders = createRouter().openapi(routes.list, handlers.list);
