// Guessing the administrator token (docs/specification.md section 2): after 10 failed sign-ins from one
// client address within 10 minutes, further attempts from it get 429 unchecked, until the oldest
// failure is 10 minutes old. Through HTTP into the worker, on the real local D1; time is moved by
// writing older failure rows straight into D1 and by faking Date.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BASE, type CallResult, call, errorEnvelope } from "./helpers/http.ts";
import { callWithEnv } from "./helpers/faults.ts";
import { captureConsole, type LogLine } from "./helpers/logs.ts";

const ADMIN = env.ADMIN_TOKEN!;
const WRONG = "wrong-token-guess-0123456789";
const T0 = Date.parse("2026-05-01T10:00:00.000Z");
const WINDOW = 600_000;

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
  });
}

async function failures(): Promise<{ address: string; at: number }[]> {
  const { results } = await env.DB.prepare("SELECT address, at FROM admin_signin_failures ORDER BY at, id").all<{ address: string; at: number }>();
  return results;
}

async function insertFailures(address: string, times: number[]) {
  await env.DB.batch(times.map((at) => env.DB.prepare("INSERT INTO admin_signin_failures (address, at) VALUES (?, ?)").bind(address, at)));
}

function expectLocked(res: CallResult, retryAfter: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get("Retry-After")).toBe(String(retryAfter));
  expect(res.body).toEqual(errorEnvelope(429, "RATE_LIMITED", "Too many failed sign-ins from this address; retry later", "/admin/keys"));
}

const INVALID = errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid administrator token", "/admin/keys");

/** Every line logged through console.log, .warn or .error, with the method that wrote it. */
let lines: LogLine[];
/** The failed sign-in lines, each written through console.warn (Workers Logs marks it a warning). */
const signinWarnings = () =>
  lines.filter((l) => l.text.includes('"admin_signin_failed"')).map((l) => ({ method: l.method, ...JSON.parse(l.text) }));

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM admin_signin_failures").run();
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

  it("lock out one address only; the dashboard form and the admin API count together", async () => {
    for (let i = 0; i < 5; i++) expect((await admin("198.51.100.1")).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await login("198.51.100.1", WRONG)).status).toBe(401);
    expectLocked(await admin("198.51.100.1", ADMIN), 600);

    const page = await login("198.51.100.1", ADMIN);
    expect(page.status).toBe(429);
    expect(page.headers.get("Retry-After")).toBe("600");
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
    expect(page.headers.get("Set-Cookie")).toBeNull();
    expect(/<main[^>]*>[\s\S]*<\/main>/.exec(page.text)?.[0]).toBe(
      '<main class="login"><h1>Too many failed sign-ins</h1><p role="alert">Too many sign-ins from this address have failed, ' +
        'so this one was not checked. Try again in 600 seconds.</p><p><a href="/dashboard">Back to the dashboard</a></p></main>',
    );

    // Another address, and requests without one (their own shared bucket), are not affected.
    expect((await admin("198.51.100.2", ADMIN)).status).toBe(200);
    expect((await login("198.51.100.2", ADMIN)).status).toBe(200);
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
    expect((await login("192.0.2.9", ADMIN)).status).toBe(200);
  });

  it("expire from the window: failures 10 minutes old or older do not count", async () => {
    // Nine recent failures and one exactly 10 minutes old: not locked.
    await insertFailures("192.0.2.50", [T0 - WINDOW, ...Array.from({ length: 9 }, (_, i) => T0 - 1000 * (i + 1))]);
    expect((await admin("192.0.2.50", ADMIN)).status).toBe(200);
    // Ten inside the window, the oldest 9 min 35 s old: locked for 25 more seconds.
    await insertFailures("192.0.2.51", [T0 - WINDOW + 25_000, ...Array.from({ length: 9 }, (_, i) => T0 - 1000 * (i + 1))]);
    expectLocked(await admin("192.0.2.51", ADMIN), 25);
  });

  it("log a warning for each failure, without the token, and prune expired rows as they write", async () => {
    await insertFailures("192.0.2.77", [T0 - WINDOW - 5000, T0 - WINDOW]);
    await admin("192.0.2.60");
    await login("192.0.2.60", WRONG);
    expect(signinWarnings()).toEqual([
      { method: "warn", level: "warn", request_id: expect.any(String), event: "admin_signin_failed", via: "admin-api", address: "192.0.2.60", recorded: true },
      { method: "warn", level: "warn", request_id: expect.any(String), event: "admin_signin_failed", via: "dashboard", address: "192.0.2.60", recorded: true },
    ]);
    expect(lines.map((l) => l.text).join("\n")).not.toContain(WRONG);
    expect(await failures()).toEqual([
      { address: "192.0.2.60", at: T0 },
      { address: "192.0.2.60", at: T0 },
    ]);
  });

  it("are not written when the per-address binding refuses (a parallel flood), and still answer 401", async () => {
    const refusing = { limit: async () => ({ success: false }) } as RateLimit;
    const res = await callWithEnv({ SIGNIN_LIMITER: refusing }, "/admin/keys", {
      headers: { Authorization: `Bearer ${WRONG}`, "CF-Connecting-IP": "192.0.2.88" },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    expect(await failures()).toEqual([]);
    expect(signinWarnings()[0]).toMatchObject({ method: "warn", recorded: false });
  });

  it("is the binding of wrangler.toml", () => {
    expect(typeof env.SIGNIN_LIMITER?.limit).toBe("function");
  });
});
