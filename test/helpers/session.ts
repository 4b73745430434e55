// The dashboard session as tests see it: the id in the cookie, and the hash under which D1 and the
// audit log know it (docs/specification.md section 2, The administrator's sign-in); logging in and
// sending the dashboard's forms.
import { env } from "cloudflare:workers";
import { hashOf } from "../../src/admin/admin.session.ts";
import { BASE, type CallResult, call, errorEnvelope } from "./http.ts";

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

/** A dashboard form POST as the browser sends it (a field may repeat), its redirect answered, not followed. */
export function formPost(path: string, fields: [string, string][], cookie?: string): Promise<CallResult> {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE };
  if (cookie !== undefined) headers.Cookie = cookie;
  return call(path, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

/** Logs in through the dashboard's form: the session's Cookie header value and its id in D1 and the audit log. */
export async function dashboardLogin(): Promise<{ cookie: string; id: string }> {
  const res = await formPost("/dashboard/login", [["token", env.ADMIN_TOKEN!]]);
  if (res.status !== 303) throw new Error(`the dashboard's login answered ${res.status}`);
  const cookie = (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie()[0]!.split(";")[0]!;
  return { cookie, id: await auditSessionId(cookie) };
}

/** No keys, audit entries, form tokens or failed sign-ins; these sales agents and no others. */
export async function resetKeysAndAgents(agents: readonly (readonly [number, string, string])[]): Promise<void> {
  await env.DB.batch([
    ...["admin_signin_failures", "key_audit", "api_keys", "key_usage", "form_tokens", "sales_agents"].map((table) =>
      env.DB.prepare(`DELETE FROM ${table}`),
    ),
    ...agents.map(([id, first, last]) =>
      env.DB.prepare(
        "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES (?1, ?2, ?3, ?4)",
      ).bind(id, first, last, `98765${String(id).padStart(5, "0")}`),
    ),
  ]);
}
