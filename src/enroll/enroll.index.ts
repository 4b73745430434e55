// The enrollment endpoints that phones call (no API key): POST /enroll, GET /enroll.
import { createRouter, servedWithoutBody } from "../access/access.route.ts";
import * as handlers from "./enroll.handlers.ts";
import * as routes from "./enroll.routes.ts";

const router = createRouter();
export const enroll = router
  .openapi(servedWithoutBody(router, routes.exchange), handlers.exchange)
  .openapi(routes.page, handlers.page);
