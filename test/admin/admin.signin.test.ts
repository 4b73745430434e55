// Guessing the administrator token (docs/specification.md section 2, The administrator's sign-in):
// of the sign-ins from one client address, at most 10 in 10 minutes have their token checked, also
// when they arrive all at once; the rest get 429 unchecked until the oldest is 10 minutes old.
// Through HTTP into the worker, on the real local D1; time is moved by faking Date and by writing
// older rows straight into D1. Each test has its own hour, so that what an isolate remembers of an
// earlier test's lockout has run out.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BASE, type CallResult, call, errorEnvelope } from "../helpers/http.ts";
import { missingAdminCredentials } from "../helpers/session.ts";
import { callWithEnv, downD1 } from "../helpers/faults.ts";
import { captureConsole, type LogLine } from "../helpers/logs.ts";

const ADMIN = env.ADMIN_TOKEN!;
const WRONG = "wrong-token-guess-0123456789-abcdefgh";
const WINDOW = 600_000;
let hour = 0;
/** This test's start time. */
let T0: number;

function admin(ip: string | null, token = WRONG) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (ip !== null) headers["CF-Connecting-IP"] = ip;
  return call("/admin/keys", { headers });
}

function login(ip: string, token: string, origin = BASE) {
  return call("/dashboard/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "CF-Connecting-IP": ip },
    body: new URLSearchParams({ token }).toString(),
    // A successful sign-in answers 303 with the cookie; following it would drop the Set-Cookie.
    redirect: "manual",
  });
}

async function failures(): Promise<{ address: string; at: number }[]> {
  const { results } = await env.DB.prepare("SELECT address, at FROM admin_signin_failures ORDER BY at, id").all<{
    address: string;
    at: number;
  }>();
  return results;
}

async function insertFailures(address: string, times: number[]) {
  await env.DB.batch(
    times.map((at) =>
      env.DB.prepare("INSERT INTO admin_signin_failures (address, at) VALUES (?, ?)").bind(address, at),
    ),
  );
}

const LOCKED = errorEnvelope(
  429,
  "RATE_LIMITED",
  "Too many failed sign-ins from this address; retry later",
  "/admin/keys",
);
const INVALID = errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid administrator token", "/admin/keys");

function expectLocked(res: CallResult, retryAfter: number) {
  expect({ status: res.status, retryAfter: res.headers.get("Retry-After"), body: res.body }).toEqual({
    status: 429,
    retryAfter: String(retryAfter),
    body: LOCKED,
  });
}

function lockedPage(seconds: number): string {
  return (
    '<main class="login"><h1>Too many failed sign-ins</h1><p role="alert">Too many sign-ins from this address have failed, ' +
    `so this one was not checked. Try again in ${seconds} seconds.</p><p><a href="/dashboard">Back to the dashboard</a></p></main>`
  );
}

const mainOf = (res: CallResult) => /<main[^>]*>[\s\S]*<\/main>/.exec(res.text)?.[0];

/** Every line logged through console.log, .warn or .error, with the method that wrote it. */
let lines: LogLine[];
/** The failed sign-in lines, each written through console.warn (Workers Logs marks it a warning). */
const signinWarnings = () =>
  lines
    .filter((l) => l.text.includes('"admin_signin_failed"'))
    .map((l) => ({ method: l.method, ...JSON.parse(l.text) }));

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM admin_signin_failures").run();
  T0 = Date.parse("2026-05-01T10:00:00.000Z") + hour++ * 3_600_000;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  lines = captureConsole();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("failed administrator sign-ins", () => {
  it("answer 401 ten times, then 429 with Retry-After until the oldest failure is 10 minutes old, token unchecked", async () => {
    for (let i = 0; i < 10; i++) {
      vi.setSystemTime(T0 + i * 1000);
      const res = await admin("203.0.113.7");
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
    vi.setSystemTime(T0 + 10_000);
    expectLocked(await admin("203.0.113.7"), 590);
    // The right token is not even checked, and the refusals are not counted.
    expectLocked(await admin("203.0.113.7", ADMIN), 590);
    expect(await failures()).toHaveLength(10);
    vi.setSystemTime(T0 + WINDOW - 1);
    expectLocked(await admin("203.0.113.7", ADMIN), 1);
    // The oldest failure is now 10 minutes old: nine remain, and the address may try again.
    vi.setSystemTime(T0 + WINDOW);
    expect((await admin("203.0.113.7", ADMIN)).status).toBe(200);
    // One more failure makes ten again; the next oldest leaves the window a second later.
    expect((await admin("203.0.113.7")).status).toBe(401);
    expectLocked(await admin("203.0.113.7", ADMIN), 1);
  });

  it("hold under 30 simultaneous wrong sign-ins: 10 are checked, 20 get 429 unchecked; other addresses go on", async () => {
    const attempts = Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0 ? admin("198.51.100.30") : login("198.51.100.30", WRONG),
    );
    const answers = await Promise.all(attempts);

    const checked = answers.filter((r) => r.status === 401);
    const refused = answers.filter((r) => r.status === 429);
    expect({ checked: checked.length, refused: refused.length }).toEqual({ checked: 10, refused: 20 });
    expect(signinWarnings()).toHaveLength(10);
    expect(await failures()).toEqual(Array.from({ length: 10 }, () => ({ address: "198.51.100.30", at: T0 })));
    for (const res of refused) {
      if (res.headers.get("Content-Type")?.startsWith("application/json")) {
        expectLocked(res, 600);
      } else {
        expect({
          retryAfter: res.headers.get("Retry-After"),
          main: mainOf(res),
          cookie: res.headers.get("Set-Cookie"),
        }).toEqual({
          retryAfter: "600",
          main: lockedPage(600),
          cookie: null,
        });
      }
    }
    // The right token from that address is refused unchecked too; from another address it is let in.
    expectLocked(await admin("198.51.100.30", ADMIN), 600);
    expect((await admin("198.51.100.31", ADMIN)).status).toBe(200);
    expect((await login("198.51.100.31", ADMIN)).status).toBe(303);
  });

  it("free their place on success: the right token goes on working after nine failures, and a 10th failure locks", async () => {
    for (let i = 0; i < 9; i++) expect((await admin("198.51.100.40")).status).toBe(401);
    for (let i = 0; i < 5; i++) {
      expect((await admin("198.51.100.40", ADMIN)).status).toBe(200);
      expect((await login("198.51.100.40", ADMIN)).status).toBe(303);
    }
    expect(await failures()).toHaveLength(9);
    expect((await admin("198.51.100.40")).status).toBe(401);
    expectLocked(await admin("198.51.100.40", ADMIN), 600);
  });

  it("lock only by failures: after 40 simultaneous right sign-ins have answered, the next right one is let in", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? admin("198.51.100.45", ADMIN) : login("198.51.100.45", ADMIN),
      ),
    );
    const statuses = answers.map((r) => r.status);
    // Attempts in flight hold places: some of the burst may be refused, but none failed.
    expect(statuses.filter((s) => s !== 200 && s !== 303 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(await failures()).toEqual([]);
    expect((await admin("198.51.100.45", ADMIN)).status).toBe(200);
    expect((await login("198.51.100.45", ADMIN)).status).toBe(303);
    // A failure still counts, and ten of them still lock.
    for (let i = 0; i < 10; i++) expect((await admin("198.51.100.45")).status).toBe(401);
    expectLocked(await admin("198.51.100.45", ADMIN), 600);
  });

  it("count an attempt in flight as a failure: a right token while ten are reserved gets 429", async () => {
    // Ten reservations of attempts not finished yet (rows written, token not yet compared).
    await insertFailures(
      "198.51.100.50",
      Array.from({ length: 10 }, () => T0),
    );
    expectLocked(await admin("198.51.100.50", ADMIN), 600);
  });

  it("cost no D1 query once the isolate knows the address is locked, until it unlocks", async () => {
    const down = downD1();
    // An address not known to be locked is looked up: with D1 down, that is a 503.
    const unknown = await callWithEnv({ DB: down }, "/admin/keys", {
      headers: { Authorization: `Bearer ${WRONG}`, "CF-Connecting-IP": "198.51.100.60" },
    });
    expect(unknown.status).toBe(503);

    for (let i = 0; i < 10; i++) expect((await admin("198.51.100.60")).status).toBe(401);
    expectLocked(await admin("198.51.100.60"), 600);
    vi.setSystemTime(T0 + 100_000);
    const remembered = await callWithEnv({ DB: down }, "/admin/keys", {
      headers: { Authorization: `Bearer ${ADMIN}`, "CF-Connecting-IP": "198.51.100.60" },
    });
    expectLocked(remembered, 500);
    // Once the lockout has run out, the address is looked up again.
    vi.setSystemTime(T0 + WINDOW);
    expect((await admin("198.51.100.60", ADMIN)).status).toBe(200);
  });

  it("lock out one address only; the dashboard form and the admin API count together", async () => {
    for (let i = 0; i < 5; i++) expect((await admin("198.51.100.1")).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await login("198.51.100.1", WRONG)).status).toBe(401);
    expectLocked(await admin("198.51.100.1", ADMIN), 600);

    const page = await login("198.51.100.1", ADMIN);
    expect({
      status: page.status,
      retryAfter: page.headers.get("Retry-After"),
      type: page.headers.get("Content-Type"),
      cookie: page.headers.get("Set-Cookie"),
      main: mainOf(page),
    }).toEqual({
      status: 429,
      retryAfter: "600",
      type: "text/html; charset=UTF-8",
      cookie: null,
      main: lockedPage(600),
    });

    // Another address, and requests without one (their own shared bucket), are not affected.
    expect((await admin("198.51.100.2", ADMIN)).status).toBe(200);
    expect((await login("198.51.100.2", ADMIN)).status).toBe(303);
    expect((await admin(null, ADMIN)).status).toBe(200);
  });

  it("count an IPv6 address by its /64, and requests without an address in one shared bucket", async () => {
    for (let i = 0; i < 10; i++) expect((await admin(`2001:db8:1:2::${i + 1}`)).status).toBe(401);
    expectLocked(await admin("2001:db8:1:2:ffff:ffff:ffff:ffff", ADMIN), 600);
    expect((await admin("2001:db8:1:3::1", ADMIN)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await admin(null)).status).toBe(401);
    expectLocked(await admin(null, ADMIN), 600);
    const addresses = new Set((await failures()).map((f) => f.address));
    expect([...addresses]).toEqual(["2001:db8:1:2::/64", "unknown"]);
  });

  it("are not counted when the form is refused for CSRF: the token is never reached", async () => {
    for (let i = 0; i < 12; i++) {
      const res = await login("192.0.2.9", WRONG, "https://evil.example");
      expect(res.status).toBe(403);
      expect(res.text).toContain("<h1>Form refused</h1>");
    }
    expect(await failures()).toEqual([]);
    expect(signinWarnings()).toEqual([]);
    expect((await login("192.0.2.9", ADMIN)).status).toBe(303);
  });

  it("expire from the window: failures 10 minutes old or older do not count", async () => {
    // Nine recent failures and one exactly 10 minutes old: not locked.
    await insertFailures("192.0.2.50", [T0 - WINDOW, ...Array.from({ length: 9 }, (_, i) => T0 - 1000 * (i + 1))]);
    expect((await admin("192.0.2.50", ADMIN)).status).toBe(200);
    // Ten inside the window, the oldest 9 min 35 s old: locked for 25 more seconds.
    await insertFailures("192.0.2.51", [
      T0 - WINDOW + 25_000,
      ...Array.from({ length: 9 }, (_, i) => T0 - 1000 * (i + 1)),
    ]);
    expectLocked(await admin("192.0.2.51", ADMIN), 25);
  });

  it("log a warning for each failure, without the token, and prune expired rows as they write", async () => {
    await insertFailures("192.0.2.77", [T0 - WINDOW - 5000, T0 - WINDOW]);
    await admin("192.0.2.60");
    await login("192.0.2.60", WRONG);
    expect(signinWarnings()).toEqual([
      {
        method: "warn",
        level: "warn",
        request_id: expect.any(String),
        event: "admin_signin_failed",
        via: "admin-api",
        address: "192.0.2.60",
      },
      {
        method: "warn",
        level: "warn",
        request_id: expect.any(String),
        event: "admin_signin_failed",
        via: "dashboard",
        address: "192.0.2.60",
      },
    ]);
    expect(lines.map((l) => l.text).join("\n")).not.toContain(WRONG);
    expect(await failures()).toEqual([
      { address: "192.0.2.60", at: T0 },
      { address: "192.0.2.60", at: T0 },
    ]);
  });
});

describe("an administrator token shorter than 32 characters, or none", () => {
  const SHORT = "a-31-character-admin-token-0123";

  it("accepts no sign-in: each fails as a wrong token does, says nothing of the configuration, and logs why", async () => {
    expect(SHORT).toHaveLength(31);
    for (const [configured, problem] of [
      [SHORT, "ADMIN_TOKEN is shorter than 32 characters"],
      [undefined, "ADMIN_TOKEN is not set"],
    ] as const) {
      lines.length = 0;
      const overrides = { ADMIN_TOKEN: configured as string };
      const api = await callWithEnv(overrides, "/admin/keys", {
        headers: { Authorization: `Bearer ${SHORT}`, "CF-Connecting-IP": "192.0.2.90" },
      });
      expect({ status: api.status, body: api.body }).toEqual({ status: 401, body: INVALID });

      const form = await callWithEnv(overrides, "/dashboard/login", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: BASE,
          "CF-Connecting-IP": "192.0.2.90",
        },
        body: new URLSearchParams({ token: SHORT }).toString(),
      });
      expect({ status: form.status, cookie: form.headers.get("Set-Cookie") }).toEqual({ status: 401, cookie: null });
      expect(mainOf(form)).toContain("That is not the administrator token. Nobody was logged in.");

      // The page before a sign-in is the usual one.
      const page = await callWithEnv(overrides, "/dashboard");
      const usual = await call("/dashboard");
      expect({ status: page.status, main: mainOf(page) }).toEqual({ status: 200, main: mainOf(usual) });
      for (const res of [api, form, page]) expect(res.text).not.toContain("ADMIN_TOKEN");

      const errorLines = lines
        .filter((l) => l.text.includes('"admin_token_unusable"'))
        .map((l) => ({ method: l.method, ...JSON.parse(l.text) }));
      expect(errorLines).toEqual([
        { method: "error", level: "error", request_id: expect.any(String), event: "admin_token_unusable", problem },
        { method: "error", level: "error", request_id: expect.any(String), event: "admin_token_unusable", problem },
      ]);
      // Both attempts were failures like any other.
      expect(signinWarnings()).toHaveLength(2);
      await env.DB.prepare("DELETE FROM admin_signin_failures").run();
    }
  });

  it("closes the sessions opened before too, and logs why", async () => {
    const signedIn = await login("192.0.2.91", ADMIN);
    const cookie = (signedIn.headers as unknown as { getSetCookie(): string[] }).getSetCookie()[0]!.split(";")[0]!;
    expect((await call("/admin/keys", { headers: { Cookie: cookie } })).status).toBe(200);

    lines.length = 0;
    const api = await callWithEnv({ ADMIN_TOKEN: SHORT }, "/admin/keys", { headers: { Cookie: cookie } });
    expect({ status: api.status, body: api.body }).toEqual({
      status: 401,
      body: missingAdminCredentials("/admin/keys"),
    });
    const page = await callWithEnv({ ADMIN_TOKEN: SHORT }, "/dashboard", { headers: { Cookie: cookie } });
    expect({ status: page.status, main: mainOf(page) }).toEqual({
      status: 200,
      main: mainOf(await call("/dashboard")),
    });
    expect(lines.filter((l) => l.method === "error").map((l) => JSON.parse(l.text).problem)).toEqual([
      "ADMIN_TOKEN is shorter than 32 characters",
      "ADMIN_TOKEN is shorter than 32 characters",
    ]);
  });
});
