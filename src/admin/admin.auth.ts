// Who may use the JSON admin API: the administrator token as a bearer credential, or a dashboard session whose writes
// carry its CSRF token; never an API key (docs/specification.md section 2).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { bearerToken } from "../platform/lib/bearer.ts";
import { errors } from "../platform/errors.ts";
import { adminTokenMatches } from "./admin.token.ts";
import { CSRF_HEADER, csrfTokenValid, readSession } from "./admin.session.ts";
import { signIn, signInAttemptOf } from "./admin.signin-throttle.ts";

const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  if (header !== undefined) {
    const given = bearerToken(header);
    if (given === null) {
      throw errors.unauthenticated(
        "Malformed Authorization header: send 'Authorization: Bearer <administrator token>'",
      );
    }
    const attempt = signInAttemptOf(c, "admin-api");
    // A bearer token is a sign-in: counted, and refused unchecked after too many failures.
    if (!(await signIn(attempt, () => adminTokenMatches(c.env.ADMIN_TOKEN, given, c.var.requestId)))) {
      throw errors.unauthenticated(
        given.startsWith("sk_")
          ? "API keys do not open the admin API: use the administrator token"
          : "Invalid administrator token",
      );
    }
    return next();
  }

  const session = await readSession(c);
  if (!session) {
    throw errors.unauthenticated(
      "Missing credentials: send 'Authorization: Bearer <administrator token>' or log in at /dashboard",
    );
  }
  if (!SAFE_METHOD.test(c.req.method) && !(await csrfTokenValid(session, c.req.header(CSRF_HEADER)))) {
    throw errors.unauthenticated(
      `Missing or invalid ${CSRF_HEADER} header: a write with the dashboard session must carry the page's CSRF token`,
    );
  }
  return next();
});
