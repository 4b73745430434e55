// The administrator's dashboard sessions (docs/specification.md section 2, The administrator's
// sign-in): kept in D1 under the hash of their id, ended on the server by signing out, keyed with the
// service's own secret (a row of service_secrets made on first use), never with the administrator
// token. Through HTTP into the worker, on the real local D1.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BASE, type CallResult, call } from "../helpers/http.ts";
import { cookieSessionId, missingAdminCredentials } from "../helpers/session.ts";
import { callWithEnv } from "../helpers/faults.ts";
import { emptyTables } from "../helpers/seed.ts";

const ADMIN = env.ADMIN_TOKEN!;
const HOUR = 3_600_000;
const MISSING = missingAdminCredentials("/admin/keys");

interface SignedIn {
  /** The Cookie header value. */
  cookie: string;
  /** The session id that the cookie carries. */
  id: string;
  csrf: string;
}

async function login(): Promise<SignedIn> {
  const res = await call("/dashboard/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams({ token: ADMIN }).toString(),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const cookie = (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie()[0]!.split(";")[0]!;
  const page = await call("/dashboard", { headers: { Cookie: cookie } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)![1]!;
  return { cookie, id: cookieSessionId(cookie), csrf };
}

function logout(session: SignedIn): Promise<CallResult> {
  return call("/dashboard/logout", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: session.cookie },
    body: new URLSearchParams({ csrf_token: session.csrf }).toString(),
  });
}

/**
 * Whether the cookie opens the dashboard page and the admin API. Refused, both answer as they answer
 * no session: the login page, and the admin API's 401.
 */
async function opens(session: SignedIn, overrides?: Partial<Cloudflare.Env>): Promise<boolean> {
  const send = (path: string) =>
    overrides
      ? callWithEnv(overrides, path, { headers: { Cookie: session.cookie } })
      : call(path, { headers: { Cookie: session.cookie } });
  const [page, api] = await Promise.all([send("/dashboard"), send("/admin/keys")]);
  if (page.text.includes("<h1>API keys</h1>")) {
    expect({ page: page.status, api: api.status }).toEqual({ page: 200, api: 200 });
    return true;
  }
  const anonymous = await call("/dashboard");
  expect({ status: page.status, main: mainOf(page), api: { status: api.status, body: api.body } }).toEqual({
    status: 200,
    main: mainOf(anonymous),
    api: { status: 401, body: MISSING },
  });
  return false;
}

const mainOf = (res: CallResult) => /<main[^>]*>[\s\S]*<\/main>/.exec(res.text)?.[0];

async function sessionRows(): Promise<
  { id_hash: string; secret_name: string; created_at: number; expires_at: number }[]
> {
  const { results } = await env.DB.prepare(
    "SELECT id_hash, secret_name, created_at, expires_at FROM admin_sessions ORDER BY created_at, id_hash",
  ).all<{
    id_hash: string;
    secret_name: string;
    created_at: number;
    expires_at: number;
  }>();
  return results;
}

async function secretRows(): Promise<{ name: string; secret: string }[]> {
  return (await env.DB.prepare("SELECT name, secret FROM service_secrets").all<{ name: string; secret: string }>())
    .results;
}

async function hashOf(id: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

beforeEach(() => emptyTables("admin_sessions", "admin_signin_failures"));
afterEach(() => vi.useRealTimers());

describe("dashboard sessions", () => {
  it("are rows under the hash of their id, made with the service's own secret on the first sign-in", async () => {
    await env.DB.prepare("DELETE FROM service_secrets").run();
    const T = Date.parse("2026-06-01T08:00:00.000Z");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T);
    const session = await login();
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionRows()).toEqual([
      { id_hash: await hashOf(session.id), secret_name: "admin-session", created_at: T, expires_at: T + 8 * HOUR },
    ]);
    const secrets = await secretRows();
    expect(secrets).toEqual([{ name: "admin-session", secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }]);
    expect(JSON.stringify(await sessionRows())).not.toContain(session.id);
    expect(await opens(session)).toBe(true);
  });

  it("end at sign-out for every copy of the cookie; another session goes on", async () => {
    const [first, second] = [await login(), await login()];
    expect(await sessionRows()).toHaveLength(2);
    const copy = { ...first };
    expect((await logout(first)).status).toBe(200);
    expect(await sessionRows()).toEqual([expect.objectContaining({ id_hash: await hashOf(second.id) })]);
    expect(await opens(copy)).toBe(false);
    expect(await opens(second)).toBe(true);
  });

  it("do not depend on the administrator token: a new token leaves them open", async () => {
    const session = await login();
    expect(await opens(session, { ADMIN_TOKEN: "another-administrator-token-0123456789" })).toBe(true);
  });

  it("all end when the secret's row is deleted; the next sign-in makes a new secret", async () => {
    const [first, second] = [await login(), await login()];
    const [before] = await secretRows();
    await env.DB.prepare("DELETE FROM service_secrets WHERE name = 'admin-session'").run();
    expect(await sessionRows()).toEqual([]);
    expect(await opens(first)).toBe(false);
    expect(await opens(second)).toBe(false);

    const third = await login();
    const [after] = await secretRows();
    expect(after!.secret).not.toBe(before!.secret);
    expect(await opens(third)).toBe(true);
  });

  it("end after 8 hours; expired rows are deleted as sessions start and end", async () => {
    const T = Date.parse("2026-06-02T08:00:00.000Z");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T);
    const old = await login();
    vi.setSystemTime(T + 8 * HOUR - 1);
    expect(await opens(old)).toBe(true);
    vi.setSystemTime(T + 8 * HOUR);
    expect(await opens(old)).toBe(false);
    expect(await sessionRows()).toHaveLength(1);

    const fresh = await login();
    expect((await sessionRows()).map((r) => r.id_hash)).toEqual([await hashOf(fresh.id)]);
    // One more that expires, then a sign-out deletes it along with its own row.
    await env.DB.prepare(
      "INSERT INTO admin_sessions (id_hash, secret_name, created_at, expires_at) VALUES ('expired', 'admin-session', ?1, ?2)",
    )
      .bind(T, T + 8 * HOUR)
      .run();
    expect((await logout(fresh)).status).toBe(200);
    expect(await sessionRows()).toEqual([]);
  });
});
