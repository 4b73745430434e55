// The dashboard session as tests see it: the id in the cookie, and the hash under which D1 and the
// audit log know it (docs/specification.md section 2, The administrator's sign-in).
import { hashOf } from "../../src/admin/session.ts";

/** The session id that a Cookie header value ("__Host-olk_admin=<id>.<expiry>.<signature>") carries. */
export function cookieSessionId(cookie: string): string {
  return cookie.split("=")[1]!.split(".")[0]!;
}

/** The audit log's and the sessions table's name for that session: the SHA-256 of its id, base64url. */
export function auditSessionId(cookie: string): Promise<string> {
  return hashOf(cookieSessionId(cookie));
}
