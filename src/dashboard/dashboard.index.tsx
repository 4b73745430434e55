// The dashboard's pages, beside the API (a session, not keys); every form checked here once: Origin (hono/csrf), the
// session's CSRF token, its size and, but for the sign-in's, a session.
import { type Context, Hono } from "hono";
import { except } from "hono/combine";
import { matchedRoutes } from "hono/route";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../env.ts";
import { toApiError } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";
import { limitBody } from "../platform/middleware/body-limit.ts";
import { enrollmentRoutes } from "./dashboard.enrollments.tsx";
import { checkOrigin, type DashEnv, nonceOf } from "./dashboard.guards.tsx";
import { keyRoutes } from "./dashboard.key.tsx";
import { keysRoutes } from "./dashboard.keys.tsx";
import { MessagePage } from "./dashboard.layout.tsx";
import { requireSession, signInRoutes } from "./dashboard.signin.tsx";

/** A POST that no form answers is the app's 404, as any unknown address, unguarded. */
const notAForm = (c: Context) => !matchedRoutes(c).some((r) => r.method === "POST" && !r.path.endsWith("*"));

const dashboard = new Hono<DashEnv>()
  .use(
    "/dashboard/*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: [NONCE],
        styleSrc: [NONCE],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    }),
    async (c, next) => {
      await next();
      // Pages carry a fresh secret or the CSRF token: no cache may keep them.
      c.header("Cache-Control", "no-store");
    },
  )
  .on(
    "POST",
    "/dashboard/*",
    except(notAForm, checkOrigin, limitBody),
    except([notAForm, "/dashboard/login"], requireSession),
  )
  .route("/", signInRoutes)
  .route("/", keysRoutes)
  .route("/", keyRoutes)
  .route("/", enrollmentRoutes)
  // The forms' addresses, reloaded or bookmarked after a POST, lead back to the page.
  .get("/dashboard/*", (c) => c.redirect("/dashboard", 303));

dashboard.onError((err, c) => {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    log({ level: "error", request_id: c.get("requestId"), error: errorName(err), status: apiError.status });
  }
  const title = apiError.status === 413 ? "Form too large" : "Something went wrong";
  return c.html(<MessagePage nonce={nonceOf(c)} title={title} message={apiError.description} />, apiError.status);
});

export const dashboardApp = new Hono<AppEnv>().route("/", dashboard);
