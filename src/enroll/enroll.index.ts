// The enrollment endpoints that phones call (no API key): POST /enroll, GET /enroll.
import { createRouter, servedWithoutBody } from "../access/access.route.ts";
import { limitBody } from "../platform/middleware/body-limit.ts";
import * as handlers from "./enroll.handlers.ts";
import * as routes from "./enroll.routes.ts";

const router = createRouter();
// The handler reads the body itself, so that a missing Content-Type or an unknown field is judged as it says.
export const enroll = router
  .openapi({ ...servedWithoutBody(router, routes.exchange), middleware: [limitBody] }, handlers.exchange)
  .openapi(routes.page, handlers.page);
