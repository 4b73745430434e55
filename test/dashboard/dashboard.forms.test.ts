// The dashboard's forms never repeat a change (docs/specification.md section 9, "The dashboard's
// forms"), through HTTP into the worker with the session cookie and CSRF token: the make-key and
// roll forms carry a one-time token, sending the same form again answers 303 to the key list; the
// other forms answer 303 to a page; expired, missing and other sessions' tokens change nothing.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/platform/lib/crypto.ts";
import { BASE, type CallResult, call, statusAndHeaders } from "../helpers/http.ts";
import { auditSessionId } from "../helpers/session.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { emptyTables } from "../helpers/seed.ts";

const ADMIN = env.ADMIN_TOKEN!;
const bearer = { Authorization: `Bearer ${ADMIN}` };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const SECRET = /sk_test_[0-9A-Za-z]{43}/;
const HOUR = 3_600_000;
const ALREADY_SENT = "/dashboard?notice=already-sent";
const ALREADY_SENT_NOTICE =
  '<p class="notice" role="status">That form had already been sent, so it was not sent again: nothing changed. ' +
  "A new key&#39;s secret is shown only once, in the answer to the form that made it; if it was not copied, revoke " +
  "that key and make another.</p>";
const REFUSED = "<h1>Form refused</h1>";

interface Session {
  cookie: string;
  /** The session's name in D1 and the audit log (the hash of the cookie's id). */
  id: string;
}

/** Logs in through the form: a 303 to the page, with the session cookie. */
async function login(): Promise<Session> {
  const res = await send("/dashboard/login", { token: ADMIN });
  expect(statusAndHeaders(res, "Location", "Cache-Control")).toEqual({
    status: 303,
    Location: "/dashboard",
    "Cache-Control": "no-store",
  });
  const cookie = setCookies(res)[0]!.split(";")[0]!;
  return { cookie, id: await auditSessionId(cookie) };
}

/** Shows the key list to the session: the page, its CSRF token and its one-time form token. */
async function page(
  session: Session,
  path = "/dashboard",
): Promise<{ res: CallResult; csrf: string; formToken: string }> {
  const res = await call(path, { headers: { Cookie: session.cookie } });
  return { res, ...tokensOf(res) };
}

function tokensOf(res: CallResult): { csrf: string; formToken: string } {
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(res.text)?.[1];
  const formToken = /name="form_token" value="([^"]+)"/.exec(res.text)?.[1];
  expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(formToken).toMatch(/^[A-Za-z0-9]{43}$/);
  return { csrf: csrf!, formToken: formToken! };
}

/** A form POST as the browser sends it, redirects answered rather than followed. */
function send(path: string, fields: Record<string, string>, session?: Session): Promise<CallResult> {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE };
  if (session) headers.Cookie = session.cookie;
  return call(path, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

function setCookies(res: CallResult): string[] {
  return (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie();
}

const keys = async (): Promise<any[]> => (await call("/admin/keys", { headers: bearer })).body.data;
const audit = async (): Promise<any[]> => (await call("/admin/audit", { headers: bearer })).body.data;
const dashboard = (session: Session) => ({ actor: "dashboard", session_id: session.id });

/** The answer of a form sent again: a 303 to the key list, nothing else. */
function expectAlreadySent(res: CallResult) {
  expect({ ...statusAndHeaders(res, "Location", "Cache-Control"), text: res.text }).toEqual({
    status: 303,
    Location: ALREADY_SENT,
    "Cache-Control": "no-store",
    text: "",
  });
}

function alertOf(res: CallResult): string | undefined {
  return /<div class="alert" role="alert"><p>([^<]*)<\/p><\/div>/.exec(res.text)?.[1];
}

beforeEach(() => emptyTables("admin_signin_failures", "key_audit", "api_keys", "form_tokens"));
afterEach(() => vi.useRealTimers());

describe("the make-key form", () => {
  it("sent twice makes one key: the second answer is a 303 to the key list, with no secret", async () => {
    const session = await login();
    const { csrf, formToken } = await page(session);
    const fields = {
      csrf_token: csrf,
      form_token: formToken,
      name: "Till 4",
      mode: "test",
      expires_in: "",
      scopes: "read",
    };

    const made = await send("/dashboard/keys", fields, session);
    expect(statusAndHeaders(made, "Cache-Control", "Location")).toEqual({
      status: 200,
      "Cache-Control": "no-store",
      Location: null,
    });
    const secret = SECRET.exec(made.text)![0];
    expect(made.text).toContain(`<input id="new-secret" type="text" readonly="" value="${secret}"`);
    // The answer's own forms carry a new token.
    expect(tokensOf(made).formToken).not.toBe(formToken);

    const again = await send("/dashboard/keys", fields, session);
    expectAlreadySent(again);

    const [key, ...others] = await keys();
    expect(others).toEqual([]);
    expect(key).toMatchObject({ name: "Till 4", scopes: ["read"], prefix: `${secret.slice(0, 12)}…` });
    expect(await audit()).toEqual([
      {
        at: ISO,
        action: "create",
        key_id: key.id,
        new_key_id: null,
        code_id: null,
        key_name: "Till 4",
        mode: "test",
        ...dashboard(session),
      },
    ]);
    // Where it leads: the key list, saying why, without the secret.
    const list = await call(ALREADY_SENT, { headers: { Cookie: session.cookie } });
    expect(list.status).toBe(200);
    expect(list.text).toContain(ALREADY_SENT_NOTICE);
    expect(list.text).toContain(`<span class="hint">${key.id}</span>`);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain('id="new-secret"');
  });

  it("sent twice at once makes one key: one answer shows it, the other is a 303", async () => {
    const session = await login();
    const { csrf, formToken } = await page(session);
    const fields = { csrf_token: csrf, form_token: formToken, name: "Double click", mode: "test", scopes: "read" };
    const answers = await Promise.all([1, 2, 3].map(() => send("/dashboard/keys", fields, session)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 303, 303]);
    expect(answers.filter((a) => SECRET.test(a.text))).toHaveLength(1);
    expect((await keys()).map((k) => k.name)).toEqual(["Double click"]);
    expect((await audit()).map((e) => e.action)).toEqual(["create"]);
  });

  it("refused for bad input shows the form again with a new token; the fixed form makes the key", async () => {
    const session = await login();
    const first = await page(session);
    const bad = { csrf_token: first.csrf, form_token: first.formToken, name: "  ", mode: "test", scopes: "read" };
    const refused = await send("/dashboard/keys", bad, session);
    expect(refused.status).toBe(422);
    expect(alertOf(refused)).toBe("The key was not made: name must not be empty.");
    const { formToken } = tokensOf(refused);
    expect(formToken).not.toBe(first.formToken);
    // That answer sent again (a reload) changes nothing either.
    expectAlreadySent(await send("/dashboard/keys", bad, session));

    const made = await send("/dashboard/keys", { ...bad, form_token: formToken, name: "Fixed" }, session);
    expect(made.status).toBe(200);
    expect(SECRET.test(made.text)).toBe(true);
    expect((await keys()).map((k) => k.name)).toEqual(["Fixed"]);
    expect((await audit()).map((e) => [e.action, e.key_name])).toEqual([["create", "Fixed"]]);
  });
});

describe("the roll form", () => {
  it("sent twice rolls once", async () => {
    const old = await makeKey({ name: "Reports" });
    const session = await login();
    const { csrf, formToken } = await page(session);
    const fields = { csrf_token: csrf, form_token: formToken, grace: "3600" };

    const rolled = await send(`/dashboard/keys/${old.record.id}/roll`, fields, session);
    expect(statusAndHeaders(rolled, "Cache-Control")).toEqual({ status: 200, "Cache-Control": "no-store" });
    const secret = SECRET.exec(rolled.text)![0];
    expect(rolled.text).toContain(`It replaces <code>${old.record.prefix}</code>, which keeps working until <time`);

    expectAlreadySent(await send(`/dashboard/keys/${old.record.id}/roll`, fields, session));

    const all = await keys();
    expect(all.map((k) => [k.replaces, k.status])).toEqual([
      [null, "grace"],
      [old.record.id, "active"],
    ]);
    const fresh = all[1];
    expect(fresh.prefix).toBe(`${secret.slice(0, 12)}…`);
    expect(await audit()).toEqual([
      {
        at: ISO,
        action: "roll",
        key_id: old.record.id,
        new_key_id: fresh.id,
        code_id: null,
        key_name: "Reports",
        mode: "test",
        ...dashboard(session),
      },
      {
        at: ISO,
        action: "create",
        key_id: old.record.id,
        new_key_id: null,
        code_id: null,
        key_name: "Reports",
        mode: "test",
        actor: "cli",
        session_id: null,
      },
    ]);
  });

  it("a page's token serves each of its forms once: make one key and roll two others from one page", async () => {
    const [a, b] = [await makeKey({ name: "A" }), await makeKey({ name: "B" })];
    const session = await login();
    const { csrf, formToken } = await page(session);
    const base = { csrf_token: csrf, form_token: formToken };
    expect((await send(`/dashboard/keys/${a.record.id}/roll`, { ...base, grace: "0" }, session)).status).toBe(200);
    expect((await send(`/dashboard/keys/${b.record.id}/roll`, { ...base, grace: "0" }, session)).status).toBe(200);
    expect((await send("/dashboard/keys", { ...base, name: "C", mode: "test", scopes: "read" }, session)).status).toBe(
      200,
    );
    for (const path of [`/dashboard/keys/${a.record.id}/roll`, `/dashboard/keys/${b.record.id}/roll`]) {
      expectAlreadySent(await send(path, { ...base, grace: "0" }, session));
    }
    expectAlreadySent(await send("/dashboard/keys", { ...base, name: "C", mode: "test", scopes: "read" }, session));
    expect((await audit()).map((e) => [e.action, e.key_name, e.actor])).toEqual([
      ["create", "C", "dashboard"],
      ["roll", "B", "dashboard"],
      ["roll", "A", "dashboard"],
      ["create", "B", "cli"],
      ["create", "A", "cli"],
    ]);
  });
});

describe("plain POST/Redirect/GET", () => {
  it("revoke answers 303 to the key list, which says so; sent again it changes nothing", async () => {
    const { record, secret } = await makeKey({ name: "Old tablet" });
    const session = await login();
    const { csrf } = await page(session);
    const path = `/dashboard/keys/${record.id}/revoke`;
    const revoked = await send(path, { csrf_token: csrf }, session);
    expect({ ...statusAndHeaders(revoked, "Location", "Cache-Control"), text: revoked.text }).toEqual({
      status: 303,
      Location: `/dashboard?revoked=${record.id}`,
      "Cache-Control": "no-store",
      text: "",
    });
    expect((await call("/api/customers", { key: secret })).status).toBe(401);
    const notice =
      `<p class="notice" role="status">Key “Old tablet” (${record.prefix}) is revoked. It stops working everywhere ` +
      "within 10 seconds locally and about 100 seconds in production.</p>";
    expect((await page(session, `/dashboard?revoked=${record.id}`)).res.text).toContain(notice);
    const revokedAt = (await keys())[0].revoked_at;

    expect(statusAndHeaders(await send(path, { csrf_token: csrf }, session), "Location")).toEqual({
      status: 303,
      Location: `/dashboard?revoked=${record.id}`,
    });
    expect((await keys())[0].revoked_at).toBe(revokedAt);
    expect((await audit()).map((e) => [e.action, e.actor])).toEqual([
      ["revoke", "dashboard"],
      ["create", "cli"],
    ]);
    // The list names only a key that is revoked.
    const active = await makeKey({ name: "Active" });
    for (const query of [`revoked=${active.record.id}`, "revoked=key_0000000000000000", "revoked=x", "notice=other"]) {
      expect((await page(session, `/dashboard?${query}`)).res.text).not.toContain('class="notice"');
    }
  });

  it("a refused revoke is shown on the page and changes nothing", async () => {
    const session = await login();
    const { csrf } = await page(session);
    const res = await send("/dashboard/keys/key_0000000000000000/revoke", { csrf_token: csrf }, session);
    expect(res.status).toBe(404);
    expect(alertOf(res)).toBe("The key was not revoked: No key with id key_0000000000000000.");
    expect(await audit()).toEqual([]);
  });

  it("sign-out answers 303 to the login page and clears the cookie", async () => {
    const session = await login();
    const { csrf } = await page(session);
    const res = await send("/dashboard/logout", { csrf_token: csrf }, session);
    expect({ ...statusAndHeaders(res, "Location", "Cache-Control"), cookies: setCookies(res), text: res.text }).toEqual(
      {
        status: 303,
        Location: "/dashboard",
        "Cache-Control": "no-store",
        cookies: ["__Host-olk_admin=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict"],
        text: "",
      },
    );
  });
});

describe("tokens that do not let a form through", () => {
  it("a token from another session is refused and stays usable by its own session", async () => {
    const { record } = await makeKey({ name: "Shared" });
    const owner = await login();
    const other = await login();
    const { formToken } = await page(owner);
    const { csrf } = await page(other);
    for (const [path, fields] of [
      ["/dashboard/keys", { name: "Stolen", mode: "test", scopes: "read" }],
      [`/dashboard/keys/${record.id}/roll`, { grace: "0" }],
    ] as const) {
      const res = await send(path, { csrf_token: csrf, form_token: formToken, ...fields }, other);
      expect(res.status).toBe(403);
      expect(res.text).toContain(REFUSED);
      expect(SECRET.test(res.text)).toBe(false);
    }
    expect(await audit()).toEqual([expect.objectContaining({ action: "create", actor: "cli" })]);

    const ownCsrf = (await page(owner)).csrf;
    const made = await send(
      "/dashboard/keys",
      { csrf_token: ownCsrf, form_token: formToken, name: "Own", mode: "test", scopes: "read" },
      owner,
    );
    expect(made.status).toBe(200);
    expect((await keys()).map((k) => k.name)).toEqual(["Shared", "Own"]);
  });

  it("an expired token: a clear answer, the form again with its values and a new token; nothing changed", async () => {
    const { record } = await makeKey({ name: "Kiosk" });
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const session = await login();
    const { csrf, formToken } = await page(session);
    vi.setSystemTime(start + HOUR + 1000);

    const fields = {
      csrf_token: csrf,
      form_token: formToken,
      name: "Late",
      mode: "live",
      expires_in: "86400",
      scopes: "write",
    };
    const late = await send("/dashboard/keys", fields, session);
    expect(statusAndHeaders(late, "Cache-Control")).toEqual({ status: 409, "Cache-Control": "no-store" });
    expect(alertOf(late)).toBe(
      "The key was not made: the form was out of date (a form can be sent for an hour after its page was shown). " +
        "Nothing was changed; send it again.",
    );
    expect(late.text).toContain('value="Late"');
    // The deployment's mode is the only one offered, whatever the out-of-date form said.
    expect(late.text).toContain('<input type="radio" name="mode" value="test" checked=""/> test');
    expect(late.text).not.toContain('name="mode" value="live"');
    expect(late.text).toContain('<option value="86400" selected="">in 24 hours</option>');
    expect(late.text).toContain('<input type="checkbox" name="scopes" value="read"/>');
    const renewed = tokensOf(late).formToken;
    expect(renewed).not.toBe(formToken);

    const lateRoll = await send(
      `/dashboard/keys/${record.id}/roll`,
      { csrf_token: csrf, form_token: formToken, grace: "0" },
      session,
    );
    expect(lateRoll.status).toBe(409);
    expect(alertOf(lateRoll)).toBe(
      "The key was not rolled: the form was out of date (a form can be sent for an hour after its page was shown). " +
        "Nothing was changed; send it again.",
    );
    expect((await keys()).map((k) => k.name)).toEqual(["Kiosk"]);
    expect((await audit()).map((e) => e.action)).toEqual(["create"]);

    const made = await send("/dashboard/keys", { ...fields, form_token: renewed }, session);
    expect(made.status).toBe(200);
    expect(made.text).toContain("New live-mode key “Late”: copy it now");
  });

  it("a missing or unknown token gets the same answer as an expired one", async () => {
    const session = await login();
    const { csrf } = await page(session);
    for (const token of [undefined, "", "A".repeat(43)]) {
      const fields: Record<string, string> = { csrf_token: csrf, name: "No token", mode: "test", scopes: "read" };
      if (token !== undefined) fields.form_token = token;
      const res = await send("/dashboard/keys", fields, session);
      expect(res.status).toBe(409);
      expect(alertOf(res)).toMatch(/^The key was not made: the form was out of date/);
    }
    expect(await keys()).toEqual([]);
    expect(await audit()).toEqual([]);
  });

  it("a form sent again after its token expired still answers 303 to the key list", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const session = await login();
    const { csrf, formToken } = await page(session);
    const fields = { csrf_token: csrf, form_token: formToken, name: "Early", mode: "test", scopes: "read" };
    expect((await send("/dashboard/keys", fields, session)).status).toBe(200);
    vi.setSystemTime(start + 7 * HOUR);
    expectAlreadySent(await send("/dashboard/keys", fields, session));
    expect((await keys()).map((k) => k.name)).toEqual(["Early"]);
  });
});

describe("the tokens' storage", () => {
  it("keeps only each token's SHA-256, tied to the session, expiring in an hour; old rows are pruned", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const session = await login();
    const { csrf, formToken } = await page(session);
    await send(
      "/dashboard/keys",
      { csrf_token: csrf, form_token: formToken, name: "Stored", mode: "test", scopes: "read" },
      session,
    );
    const rows = async () =>
      (
        await env.DB.prepare(
          "SELECT token_hash, form, session_id, expires_at FROM form_tokens ORDER BY form, token_hash",
        ).all()
      ).results;
    const hash = await sha256Hex(formToken);
    const stored = await rows();
    // The answer's page issued one more token; no row holds a token itself.
    expect(stored).toHaveLength(3);
    expect(stored.filter((r) => r.token_hash === hash)).toEqual([
      { token_hash: hash, form: "", session_id: session.id, expires_at: start + HOUR },
      { token_hash: hash, form: "/dashboard/keys", session_id: session.id, expires_at: start + HOUR },
    ]);
    expect(JSON.stringify(stored)).not.toContain(formToken);

    // Kept while any session that saw them can last (8 hours past expiry), then pruned by the next issue.
    vi.setSystemTime(start + 9 * HOUR + 1000);
    const later = await login();
    await page(later);
    expect(await rows()).toEqual([
      { token_hash: expect.any(String), form: "", session_id: later.id, expires_at: start + 10 * HOUR + 1000 },
    ]);
  });
});
