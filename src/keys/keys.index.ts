// The keys' own endpoint on the API: POST /keys/rotate, served without its body, which its handler reads.
import { createRouter, servedWithoutBody } from "../access/access.route.ts";
import * as handlers from "./keys.rotation.handlers.ts";
import * as routes from "./keys.rotation.routes.ts";

const router = createRouter();

export const keys = router.openapi(servedWithoutBody(router, routes.rotate), handlers.rotate);
