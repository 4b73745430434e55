// The key dashboard and the JSON admin API, through HTTP into the worker: login, the session
// cookie, CSRF, the admin API with the bearer token and with the session, and the separation of
// API keys and the administrator token.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BASE, type CallResult, call, errorEnvelope, expectErrorAnswer, statusAndHeaders } from "../helpers/http.ts";
import { missingAdminCredentials, MISSING_ADMIN_CREDENTIALS } from "../helpers/session.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { expectedActiveKey } from "../fixtures/expected-key.ts";

const ADMIN = env.ADMIN_TOKEN!;
const FORM = "application/x-www-form-urlencoded";
const KEY_ID = expect.stringMatching(/^key_[0-9A-Za-z]{16}$/);
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const SECRET = /sk_test_[0-9A-Za-z]{43}/;

/** A form POST; its answer as sent (a redirect is not followed). */
function form(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return {
    method: "POST",
    headers: { "Content-Type": FORM, Origin: BASE, ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual" as const,
  };
}

/** Logs in through the form; returns the Cookie header value of the session. */
async function login(): Promise<string> {
  const res = await call("/dashboard/login", form({ token: ADMIN }));
  expect(statusAndHeaders(res, "Location")).toEqual({ status: 303, Location: "/dashboard" });
  const setCookie = setCookies(res);
  expect(setCookie).toHaveLength(1);
  return setCookie[0]!.split(";")[0]!;
}

/** The CSRF token that the logged-in page carries in its forms. */
async function csrfToken(cookie: string): Promise<string> {
  return (await pageTokens(cookie)).csrf_token;
}

/** The tokens of a freshly shown page: the session's CSRF token and the page's one-time form token. */
async function pageTokens(cookie: string): Promise<{ csrf_token: string; form_token: string }> {
  const page = await call("/dashboard", { headers: { Cookie: cookie } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1];
  const once = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1];
  expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(once).toMatch(/^[A-Za-z0-9]{43}$/);
  return { csrf_token: csrf!, form_token: once! };
}

function mainOf(res: CallResult): string {
  return /<main[^>]*>[\s\S]*<\/main>/.exec(res.text)?.[0] ?? "";
}

/** Every Set-Cookie header of an answer (workerd has getSetCookie(); its types lack it). */
function setCookies(res: CallResult): string[] {
  return (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie();
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// Failed sign-ins of earlier tests would lock the tests' shared address out (test/admin/admin.signin.test.ts).
beforeEach(async () => {
  await env.DB.prepare("DELETE FROM admin_signin_failures").run();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("GET /dashboard before login", () => {
  it("shows a heading and the administrator token field, nothing else", async () => {
    const res = await call("/dashboard");
    expect(statusAndHeaders(res, "Content-Type", "Cache-Control")).toEqual({
      status: 200,
      "Content-Type": "text/html; charset=UTF-8",
      "Cache-Control": "no-store",
    });
    expect(mainOf(res)).toBe(
      '<main class="login"><h1>API key dashboard</h1><form method="post" action="/dashboard/login">' +
        '<label for="token">Administrator token</label>' +
        '<input id="token" name="token" type="password" autocomplete="current-password" required="" autofocus=""/>' +
        '<button type="submit">Log in</button></form></main>',
    );
    expect(res.text.startsWith('<!doctype html><html lang="en">')).toBe(true);
  });

  it("sends a nonce-based Content-Security-Policy that the inline stylesheet carries", async () => {
    const res = await call("/dashboard");
    const csp = res.headers.get("Content-Security-Policy")!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(csp).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; form-action 'self'; ` +
        "frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.text).toContain(`<style nonce="${nonce}">`);
    // No external resource of any kind.
    expect(res.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    // A fresh nonce for every answer.
    const again = await call("/dashboard");
    expect(again.headers.get("Content-Security-Policy")).not.toBe(csp);
  });
});

describe("POST /dashboard/login", () => {
  it("refuses a wrong token: an error, no cookie, nobody let in", async () => {
    const res = await call("/dashboard/login", form({ token: `${ADMIN}x` }));
    expect(res.status).toBe(401);
    expect(setCookies(res)).toEqual([]);
    expect(mainOf(res)).toContain(
      '<p class="alert" role="alert" id="login-error">That is not the administrator token. Nobody was logged in.</p>',
    );
    expect(mainOf(res)).toContain('aria-invalid="true" aria-describedby="login-error"');
    expect(res.text).not.toContain("<table");
  });

  it("refuses an empty or missing token", async () => {
    for (const body of [{ token: "" }, {} as Record<string, string>]) {
      const res = await call("/dashboard/login", form(body));
      expect(res.status).toBe(401);
      expect(setCookies(res)).toEqual([]);
    }
  });

  it("refuses an API key typed in as the token", async () => {
    const { secret } = await makeKey();
    const res = await call("/dashboard/login", form({ token: secret }));
    expect(res.status).toBe(401);
    expect(setCookies(res)).toEqual([]);
  });

  it("sets an HttpOnly, Secure, SameSite=Strict, signed session cookie that expires in 8 hours", async () => {
    const before = Date.now();
    const res = await call("/dashboard/login", form({ token: ADMIN }));
    expect(statusAndHeaders(res, "Location")).toEqual({ status: 303, Location: "/dashboard" });
    const [cookie] = setCookies(res);
    const [pair, ...attributes] = cookie!.split("; ");
    // The session's random id and hono's signature of it.
    expect(pair).toMatch(/^__Host-olk_admin=[A-Za-z0-9_-]{43}\.[A-Za-z0-9%]+$/);
    const expires = attributes.find((a) => a.startsWith("Expires="))!;
    expect(attributes.filter((a) => a !== expires)).toEqual([
      "Max-Age=28800",
      "Path=/",
      "HttpOnly",
      "Secure",
      "SameSite=Strict",
    ]);
    const expiresAt = Date.parse(expires.slice("Expires=".length));
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 28_800_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 28_800_000);
    // The token itself is nowhere in the cookie.
    expect(cookie).not.toContain(ADMIN);
  });

  it("is refused from another origin (CSRF), with no cookie", async () => {
    const res = await call("/dashboard/login", form({ token: ADMIN }, { Origin: "https://evil.example" }));
    expect(res.status).toBe(403);
    expect(setCookies(res)).toEqual([]);
    expect(mainOf(res)).toContain("<h1>Form refused</h1>");
  });
});

describe("the logged-in page", () => {
  it("offers only the deployment's mode for a new key and a new enrollment code", async () => {
    const cookie = await login();
    for (const path of ["/dashboard", "/dashboard/enrollments"]) {
      const page = (await call(path, { headers: { Cookie: cookie } })).text;
      expect({ path, page }).toMatchObject({
        path,
        page: expect.stringContaining(
          '<legend>Mode</legend><div class="choices"><label class="choice"><input type="radio" name="mode" value="test" checked=""/> test</label>' +
            '<span class="hint">the only mode this deployment accepts</span></div>',
        ),
      });
      expect(page).not.toContain('name="mode" value="live"');
    }
  });

  it("lists keys of both modes with name, mode, prefix, dates and status, never a secret", async () => {
    const test = await makeKey({ name: "Billing sync", mode: "test", expiresInSeconds: 3600 });
    const live = await makeKey({ name: "Mobile app", mode: "live" });
    const cookie = await login();
    const res = await call("/dashboard", { headers: { Cookie: cookie } });
    expect(statusAndHeaders(res, "Cache-Control")).toEqual({ status: 200, "Cache-Control": "no-store" });
    const page = res.text;
    expect(page).toContain("<h1>API keys</h1>");
    for (const { record } of [test, live]) {
      expect(page).toContain(
        `<th scope="row">${record.name}</th><td data-label="Key"><code>${record.prefix}</code><br/><span class="hint">${record.id}</span>` +
          `<br/><span class="hint">made <time datetime="${record.created_at}">`,
      );
      expect(page).toContain(
        `<td data-label="Agent">every customer</td><td data-label="Mode and scopes">${record.mode}<br/><span class="scopes">read, write</span></td>`,
      );
    }
    expect(page).toContain(`<time datetime="${test.record.expires_at}">`);
    expect(page).not.toContain(test.secret);
    expect(page).not.toContain(live.secret);
    expect(page).not.toContain(test.record.hash);
    // Labelled fields and worded buttons.
    expect(page).toContain('<label for="key-name">Name</label>');
    expect(page).toContain("<legend>Mode</legend>");
    expect(page).toContain('<label for="key-expiry">Expires</label>');
    expect(page).toContain('<button type="submit">Make key</button>');
    expect(page).toContain(`Roll<span class="vh"> key ${live.record.name} (${live.record.prefix})</span></button>`);
    expect(page).toContain(`Revoke<span class="vh"> key ${test.record.name} (${test.record.prefix})</span></button>`);
    for (const grace of [
      'value="0">now',
      'value="3600">in 1 hour',
      'value="86400" selected="">in 24 hours',
      'value="604800">in 7 days',
    ]) {
      expect(page).toContain(grace);
    }
    expect(page).toContain(
      "Revoking or rolling a key takes effect everywhere within 10 seconds locally (wrangler dev) and within about 100 seconds in production.",
    );
  });

  it("escapes what it shows", async () => {
    await makeKey({ name: `<script>alert("x")</script>` });
    const cookie = await login();
    const res = await call("/dashboard", { headers: { Cookie: cookie } });
    expect(res.text).not.toContain("<script>alert");
    expect(res.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("is not opened by an API key, a forged or foreign cookie, or an expired session", async () => {
    const { secret } = await makeKey();
    const withKey = await call("/dashboard", { key: secret });
    expect(withKey.status).toBe(200);
    expect(withKey.text).toContain("<h1>API key dashboard</h1>");
    expect(withKey.text).not.toContain("<table");

    const cookie = await login();
    const [name, value] = cookie.split("=") as [string, string];
    const [id, signature] = value.split(".") as [string, string];
    const otherId = `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`;
    const forged = [`${name}=${otherId}.${signature}`, `olk_admin=${value}`, `${name}=${id}`, `${name}=${secret}`];
    for (const c of forged) {
      const res = await call("/dashboard", { headers: { Cookie: c } });
      expect(res.text).toContain("<h1>API key dashboard</h1>");
      expect(res.text).not.toContain("<h1>API keys</h1>");
    }

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 8 * 3600 * 1000 + 1000);
    const late = await call("/dashboard", { headers: { Cookie: cookie } });
    expect(late.text).toContain("<h1>API key dashboard</h1>");
  });
});

describe("the dashboard's forms", () => {
  it("makes a key and shows its secret once, with a copy button", async () => {
    const cookie = await login();
    const tokens = await pageTokens(cookie);
    const res = await call(
      "/dashboard/keys",
      form(
        { ...tokens, name: "Warehouse scanner", mode: "test", expires_in: "604800", scopes: "read" },
        { Cookie: cookie },
      ),
    );
    expect(statusAndHeaders(res, "Cache-Control")).toEqual({ status: 200, "Cache-Control": "no-store" });
    expect(setCookies(res)).toEqual([]);
    const secret = SECRET.exec(res.text)?.[0];
    expect(secret).toBeDefined();
    expect(res.text).toContain('<h2 id="new-key-heading">New test-mode key “Warehouse scanner”: copy it now</h2>');
    expect(res.text).toContain(`<input id="new-secret" type="text" readonly="" value="${secret}"`);
    expect(res.text).toContain('<button type="button" id="copy-secret" hidden="">Copy key</button>');
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy")!)![1];
    expect(res.text).toContain(`<script nonce="${nonce}">`);

    // The key works on the API, and its secret is never shown again.
    expect((await call("/api/customers", { key: secret })).status).toBe(200);
    const later = await call("/dashboard", { headers: { Cookie: cookie } });
    expect(later.text).toContain("Warehouse scanner");
    expect(later.text).not.toContain(secret);
    expect(later.text).not.toContain("<script");
  });

  it("shows what is wrong with a create form and makes nothing", async () => {
    const cookie = await login();
    const tokens = await pageTokens(cookie);
    const before = await call("/admin/keys", { headers: bearer(ADMIN) });
    const res = await call(
      "/dashboard/keys",
      form({ ...tokens, name: "   ", mode: "prod", expires_in: "soon", scopes: "write" }, { Cookie: cookie }),
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      '<div class="alert" role="alert"><p>The key was not made: name must not be empty; mode must be one of test, live; ' +
        "expires_in must be a whole number of seconds from 1 to 315360000.</p></div>",
    );
    expect(res.text).toContain('aria-invalid="true" aria-describedby="key-name-error"');
    expect((await call("/admin/keys", { headers: bearer(ADMIN) })).body).toEqual(before.body);
  });

  it("rolls a key with the chosen grace and revokes one", async () => {
    const old = await makeKey({ name: "Reports" });
    const cookie = await login();
    const tokens = await pageTokens(cookie);
    const rolled = await call(
      `/dashboard/keys/${old.record.id}/roll`,
      form({ ...tokens, grace: "3600" }, { Cookie: cookie }),
    );
    expect(rolled.status).toBe(200);
    const secret = SECRET.exec(rolled.text)![0];
    expect(secret).not.toBe(old.secret);
    expect(rolled.text).toContain(`It replaces <code>${old.record.prefix}</code>, which keeps working until <time`);
    // Both work during the grace period.
    expect((await call("/api/customers", { key: old.secret })).status).toBe(200);
    expect((await call("/api/customers", { key: secret })).status).toBe(200);

    const list = (await call("/admin/keys", { headers: bearer(ADMIN) })).body.data as any[];
    const fresh = list.find((k) => k.replaces === old.record.id);
    const revoked = await call(
      `/dashboard/keys/${fresh.id}/revoke`,
      form({ csrf_token: tokens.csrf_token }, { Cookie: cookie }),
    );
    expect(statusAndHeaders(revoked, "Location")).toEqual({ status: 303, Location: `/dashboard?revoked=${fresh.id}` });
    const shown = await call(`/dashboard?revoked=${fresh.id}`, { headers: { Cookie: cookie } });
    expect(shown.text).toContain(
      `<p class="notice" role="status">Key “Reports” (${fresh.prefix}) is revoked. It stops working everywhere within 10 seconds locally and about 100 seconds in production.</p>`,
    );
    expect((await call("/api/customers", { key: secret })).status).toBe(401);
  });

  it("shows an unknown key or a refused roll as an error on the page", async () => {
    const cookie = await login();
    const tokens = await pageTokens(cookie);
    const unknown = await call(
      "/dashboard/keys/key_0000000000000000/revoke",
      form({ csrf_token: tokens.csrf_token }, { Cookie: cookie }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("The key was not revoked: No key with id key_0000000000000000.");
    const { record } = await makeKey();
    await call(`/admin/keys/${record.id}/revoke`, { method: "POST", headers: bearer(ADMIN) });
    const refused = await call(
      `/dashboard/keys/${record.id}/roll`,
      form({ ...tokens, grace: "0" }, { Cookie: cookie }),
    );
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(
      `The key was not rolled: Key ${record.id} is revoked: only an active key can be rolled.`,
    );
  });

  it("refuses forms without the session's CSRF token or from another origin, changing nothing", async () => {
    const cookie = await login();
    const csrf = await csrfToken(cookie);
    const { record, secret } = await makeKey();
    const attempts = [
      form({ name: "x", mode: "test" }, { Cookie: cookie }),
      form({ csrf_token: "A".repeat(43), name: "x", mode: "test" }, { Cookie: cookie }),
      form({ csrf_token: csrf, name: "x", mode: "test" }, { Cookie: cookie, Origin: "https://evil.example" }),
    ];
    for (const attempt of attempts) {
      const res = await call("/dashboard/keys", attempt);
      expect(res.status).toBe(403);
      expect(res.text).toContain("<h1>Form refused</h1>");
      expect(SECRET.test(res.text)).toBe(false);
    }
    const revoke = await call(`/dashboard/keys/${record.id}/revoke`, form({ csrf_token: "nope" }, { Cookie: cookie }));
    expect(revoke.status).toBe(403);
    expect((await call("/api/customers", { key: secret })).status).toBe(200);
    // A token from another session does not fit this one.
    const other = await login();
    const res = await call(
      "/dashboard/keys",
      form({ csrf_token: await csrfToken(other), name: "x", mode: "test" }, { Cookie: cookie }),
    );
    expect(res.status).toBe(403);
  });

  it("leads a GET of a form's address back to the page", async () => {
    const res = await call("/dashboard/keys");
    expect(res.status).toBe(200);
    expect(mainOf(res)).toContain('<label for="token">Administrator token</label>');
  });

  it("asks to log in again when the session is gone, changing nothing", async () => {
    const res = await call("/dashboard/keys", form({ csrf_token: "x", name: "x", mode: "test" }));
    expect(res.status).toBe(401);
    expect(res.text).toContain("Your session has ended: log in again. Nothing was changed.");
  });

  it("logs out: the session ends on the server, so a copy of the cookie stops working at once", async () => {
    const cookie = await login();
    const csrf = await csrfToken(cookie);
    // Logging out needs the CSRF token too (no forced logout from another site).
    const forced = await call("/dashboard/logout", form({}, { Cookie: cookie }));
    expect(forced.status).toBe(403);
    expect((await call("/dashboard", { headers: { Cookie: cookie } })).text).toContain("<h1>API keys</h1>");

    const res = await call("/dashboard/logout", form({ csrf_token: csrf }, { Cookie: cookie }));
    expect(statusAndHeaders(res, "Location")).toEqual({ status: 303, Location: "/dashboard" });
    expect(setCookies(res)).toEqual(["__Host-olk_admin=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict"]);

    // The copy kept from before is answered as no session: the login page, a form refused, a 401.
    const anonymous = await call("/dashboard");
    const page = await call("/dashboard", { headers: { Cookie: cookie } });
    expect({ status: page.status, main: mainOf(page) }).toEqual({ status: 200, main: mainOf(anonymous) });
    const made = await call(
      "/dashboard/keys",
      form({ csrf_token: csrf, name: "After logout", mode: "test" }, { Cookie: cookie }),
    );
    expect(made.status).toBe(401);
    expect(mainOf(made)).toContain("Your session has ended: log in again. Nothing was changed.");
    const api = await call("/admin/keys", { headers: { Cookie: cookie } });
    expect({ status: api.status, body: api.body }).toEqual({
      status: 401,
      body: missingAdminCredentials("/admin/keys"),
    });
    const write = await call("/admin/keys", {
      method: "POST",
      headers: { Cookie: cookie, "X-CSRF-Token": csrf },
      body: { name: "x", mode: "test" },
    });
    expect(write.status).toBe(401);
    expect((await call("/admin/keys", { headers: bearer(ADMIN) })).body.data.map((k: any) => k.name)).not.toContain(
      "After logout",
    );
  });
});

describe("the JSON admin API", () => {
  const path = "/admin/keys";

  it("answers 401 without an administrator credential", async () => {
    const { secret } = await makeKey();
    const cases: [Record<string, string>, string][] = [
      [{}, MISSING_ADMIN_CREDENTIALS],
      [bearer("not-the-admin-token"), "Invalid administrator token"],
      [bearer(secret), "API keys do not open the admin API: use the administrator token"],
      [
        { Authorization: `Basic ${ADMIN}` },
        "Malformed Authorization header: send 'Authorization: Bearer <administrator token>'",
      ],
      [{ Authorization: `Bearer  ${ADMIN}` }, "Invalid administrator token"],
    ];
    for (const [headers, description] of cases) {
      for (const method of ["GET", "POST"]) {
        const res = await call(path, {
          method,
          headers,
          body: method === "POST" ? { name: "x", mode: "test" } : undefined,
        });
        expect(statusAndHeaders(res, "WWW-Authenticate")).toEqual({ status: 401, "WWW-Authenticate": "Bearer" });
        expect(res.body).toEqual(errorEnvelope(401, "AUTHENTICATION_ERROR", description, path));
      }
    }
    // Authentication comes before the id and the body are looked at; a method the path does not
    // serve is a 405 before authentication, as for the API (docs/specification.md section 1).
    const rollPath = "/admin/keys/key_nope/roll";
    const unread = await call(rollPath, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
    expect(unread.body).toEqual(errorEnvelope(401, "AUTHENTICATION_ERROR", cases[0]![1], rollPath));
    const res = await call(rollPath, { method: "DELETE", body: "{" });
    expect(statusAndHeaders(res, "Allow")).toEqual({ status: 405, Allow: "POST" });
    expect(res.body).toEqual(
      errorEnvelope(405, "METHOD_NOT_ALLOWED", "DELETE is not allowed here; allowed: POST", rollPath),
    );
  });

  it("creates, lists, rolls and revokes keys with the bearer administrator token", async () => {
    const created = await call(path, {
      method: "POST",
      headers: bearer(ADMIN),
      body: { name: "ERP export", mode: "test" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("Cache-Control")).toBe("no-store");
    const key = created.body.data;
    expect(created.body).toEqual({
      data: expectedActiveKey({
        id: KEY_ID,
        name: "ERP export",
        mode: "test",
        prefix: `${key.secret.slice(0, 12)}…`,
        created_at: ISO,
        expires_at: null,
        secret: expect.stringMatching(new RegExp(`^${SECRET.source}$`)),
      }),
    });
    expect((await call("/api/customers", { key: key.secret })).status).toBe(200);

    const expiring = await call(path, {
      method: "POST",
      headers: bearer(ADMIN),
      body: { name: "  Temp  ", mode: "live", expires_in: 3600 },
    });
    expect(expiring.status).toBe(201);
    const temp = expiring.body.data;
    expect(temp).toMatchObject({ name: "Temp", mode: "live", status: "active" });
    expect(Date.parse(temp.expires_at) - Date.parse(temp.created_at)).toBe(3_600_000);

    const listed = await call(path, { headers: bearer(ADMIN) });
    expect(listed.status).toBe(200);
    const { secret, ...publicKey } = key;
    // Listed with its use too (test/admin/admin.usage-audit.test.ts checks those fields).
    expect(listed.body.data).toContainEqual({
      ...publicKey,
      last_used_at: expect.toSatisfy((v: unknown) => v === null || typeof v === "string"),
      requests_24h: expect.any(Number),
      requests_7d: expect.any(Number),
      requests_daily: expect.any(Array),
    });
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain('"hash"');
    expect(listed.text).not.toContain('"secret"');

    const rolled = await call(`${path}/${key.id}/roll`, { method: "POST", headers: bearer(ADMIN), body: { grace: 0 } });
    expect(rolled.status).toBe(201);
    expect(rolled.body.data).toMatchObject({ name: "ERP export", mode: "test", replaces: key.id, status: "active" });
    expect((await call("/api/customers", { key: key.secret })).status).toBe(401);
    expect((await call("/api/customers", { key: rolled.body.data.secret })).status).toBe(200);
    const old = (await call(path, { headers: bearer(ADMIN) })).body.data.find((k: any) => k.id === key.id);
    expect(old).toMatchObject({ status: "expired", replaced_by: rolled.body.data.id });

    const again = await call(`${path}/${key.id}/roll`, { method: "POST", headers: bearer(ADMIN), body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      errorEnvelope(
        409,
        "CONFLICT",
        `Key ${key.id} is expired: only an active key can be rolled`,
        `${path}/${key.id}/roll`,
      ),
    );

    const graced = await call(`${path}/${rolled.body.data.id}/roll`, { method: "POST", headers: bearer(ADMIN) });
    expect(graced.status).toBe(201);
    const inGrace = (await call(path, { headers: bearer(ADMIN) })).body.data.find(
      (k: any) => k.id === rolled.body.data.id,
    );
    expect(inGrace.status).toBe("grace");
    expect(Date.parse(inGrace.expires_at) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect((await call("/api/customers", { key: rolled.body.data.secret })).status).toBe(200);

    const revokePath = `${path}/${graced.body.data.id}/revoke`;
    const revoked = await call(revokePath, { method: "POST", headers: bearer(ADMIN) });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: graced.body.data.id, status: "revoked", revoked_at: ISO });
    expect(revoked.body.data.secret).toBeUndefined();
    expect((await call("/api/customers", { key: graced.body.data.secret })).status).toBe(401);
    const twice = await call(revokePath, { method: "POST", headers: bearer(ADMIN) });
    expect(twice.status).toBe(200);
    expect(twice.body).toEqual(revoked.body);
  });

  it("answers 404 for an unknown key id", async () => {
    for (const [id, description] of [
      ["key_0000000000000000", "No key with id key_0000000000000000"],
      ["nope", "No key with that id"],
      ["x".repeat(600), "No key with that id"],
    ]) {
      for (const action of ["roll", "revoke"]) {
        const res = await call(`${path}/${id}/${action}`, { method: "POST", headers: bearer(ADMIN) });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorEnvelope(404, "NOT_FOUND", description!, `${path}/${id}/${action}`));
      }
    }
  });

  it("answers 422 for bad input, listing every field", async () => {
    const res = await call(path, {
      method: "POST",
      headers: bearer(ADMIN),
      body: { name: "", mode: "prod", expires_in: 0, color: "red" },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope(
        422,
        "VALIDATION_ERROR",
        "name must not be empty; mode must be one of test, live; " +
          "expires_in must be a whole number of seconds from 1 to 315360000; request has unknown field(s): color",
        path,
        {
          fields: [
            { field: "name", message: "must not be empty" },
            { field: "mode", message: "must be one of test, live" },
            { field: "expires_in", message: "must be a whole number of seconds from 1 to 315360000" },
            { field: "request", message: "has unknown field(s): color" },
          ],
        },
      ),
    );
    const missing = await call(path, { method: "POST", headers: bearer(ADMIN), body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields.map((f: any) => f.field)).toEqual(["name", "mode"]);
    const notObject = await call(path, { method: "POST", headers: bearer(ADMIN), body: [1] });
    expect(notObject.body).toEqual(
      errorEnvelope(422, "VALIDATION_ERROR", "request must be a JSON object", path, {
        fields: [{ field: "request", message: "must be a JSON object" }],
      }),
    );
    const { record } = await makeKey();
    for (const grace of [-1, 1.5, "0", 315_360_001]) {
      const roll = await call(`${path}/${record.id}/roll`, { method: "POST", headers: bearer(ADMIN), body: { grace } });
      expect(roll.status).toBe(422);
      expect(roll.body.error.fields).toEqual([
        { field: "grace", message: "must be a whole number of seconds from 0 to 315360000" },
      ]);
    }
  });

  it("answers 400 for a body that is not JSON, 413 for one too large, 405 for another method", async () => {
    const bad = await call(path, {
      method: "POST",
      headers: { ...bearer(ADMIN), "Content-Type": "application/json" },
      body: "{",
    });
    expect(bad.body).toEqual(errorEnvelope(400, "BAD_REQUEST", "The body is not valid JSON", path));
    const form = await call(path, {
      method: "POST",
      headers: { ...bearer(ADMIN), "Content-Type": FORM },
      body: "name=x&mode=test",
    });
    expect(form.body).toEqual(
      errorEnvelope(400, "BAD_REQUEST", "Send the body as JSON, with 'Content-Type: application/json'", path),
    );
    const big = await call(path, {
      method: "POST",
      headers: bearer(ADMIN),
      body: { name: "x".repeat(17_000), mode: "test" },
    });
    expect(big.body).toEqual(
      errorEnvelope(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16384 bytes", path),
    );
    const del = await call(path, { method: "DELETE", headers: bearer(ADMIN) });
    expect(del.status).toBe(405);
    expect(del.headers.get("Allow")).toBe("GET, HEAD, POST");
    expect(del.body).toEqual(
      errorEnvelope(405, "METHOD_NOT_ALLOWED", "DELETE is not allowed here; allowed: GET, HEAD, POST", path),
    );
  });

  it("accepts the dashboard session, with the CSRF token header for writes", async () => {
    const cookie = await login();
    const csrf = await csrfToken(cookie);
    const listed = await call(path, { headers: { Cookie: cookie } });
    expect(listed.status).toBe(200);
    const csrfDescription =
      "Missing or invalid X-CSRF-Token header: a write with the dashboard session must carry the page's CSRF token";
    const attempts: Record<string, string>[] = [{ Cookie: cookie }, { Cookie: cookie, "X-CSRF-Token": "A".repeat(43) }];
    for (const headers of attempts) {
      const res = await call(path, { method: "POST", headers, body: { name: "x", mode: "test" } });
      expect(res.body).toEqual(errorEnvelope(401, "AUTHENTICATION_ERROR", csrfDescription, path));
    }
    const made = await call(path, {
      method: "POST",
      headers: { Cookie: cookie, "X-CSRF-Token": csrf },
      body: { name: "From the page", mode: "test" },
    });
    expect(made.status).toBe(201);
    expect(made.body.data.name).toBe("From the page");
    expect((await call(path, { headers: bearer(ADMIN) })).body.data.map((k: any) => k.name)).toContain("From the page");
  });
});

describe("the administrator token and API keys stay apart", () => {
  it("the administrator token never opens the API", async () => {
    const res = await call("/api/customers", { headers: bearer(ADMIN) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("AUTHENTICATION_ERROR");
    const cookie = await login();
    const withSession = await call("/api/customers", { headers: { Cookie: cookie } });
    expect(withSession.status).toBe(401);
  });

  it("an API key never opens the admin API", async () => {
    const { secret } = await makeKey();
    const res = await call("/admin/keys", { key: secret });
    expectErrorAnswer(
      res,
      401,
      "AUTHENTICATION_ERROR",
      "API keys do not open the admin API: use the administrator token",
      "/admin/keys",
    );
  });
});
