// The dashboard session as tests see it: the id in the cookie, and the hash under which D1 and the
// audit log know it (docs/specification.md section 2, The administrator's sign-in).
import { hashOf } from "../../src/admin/admin.session.ts";
import { errorEnvelope } from "./http.ts";

/** The session id that a Cookie header value ("__Host-olk_admin=<id>.<expiry>.<signature>") carries. */
export function cookieSessionId(cookie: string): string {
  return cookie.split("=")[1]!.split(".")[0]!;
}

/** The audit log's and the sessions table's name for that session: the SHA-256 of its id, base64url. */
export function auditSessionId(cookie: string): Promise<string> {
  return hashOf(cookieSessionId(cookie));
}

/** The admin API's 401 to a request without credentials (also to an ended session's cookie). */
export const MISSING_ADMIN_CREDENTIALS =
  "Missing credentials: send 'Authorization: Bearer <administrator token>' or log in at /dashboard";

/** That 401's whole body for `path`. */
export function missingAdminCredentials(path: string) {
  return errorEnvelope(401, "AUTHENTICATION_ERROR", MISSING_ADMIN_CREDENTIALS, path);
}
