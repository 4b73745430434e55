// Enrollment codes (docs/specification.md section 9, "Enrollment"): made through the admin API, exchanged by a
// phone through the typed client's exchangeEnrollmentCode (every answer held to the published document), with
// the 10-minute retry window, the refusals, the throttle of failed exchanges and the audit entries. Time is
// moved by rewriting a code's times in D1.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { EnrollmentError, exchangeEnrollmentCode } from "@order-lookup/client";
import { scheduled, DAILY_RETENTION_CRON } from "../../src/scheduled.ts";
import { BASE, call, contractFetch, errorEnvelope, validationEnvelope } from "../helpers/http.ts";
import { callWithEnv, downD1, expectNoLeak, failingWriteBatchD1 } from "../helpers/faults.ts";
import { captureConsole, type LogLine } from "../helpers/logs.ts";
import { seedFixture } from "../helpers/seed.ts";
import { workOf } from "../helpers/timing-header.ts";

const ADMIN = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const CODE = expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
const CODE_ID = expect.stringMatching(/^enr_[0-9A-Za-z]{16}$/);
const KEY_ID = expect.stringMatching(/^key_[0-9A-Za-z]{16}$/);
const WINDOW_MS = 10 * 60 * 1000;

let lines: LogLine[];
let ipCounter = 0;
/** Each test its own client address, so that one test's failures never lock another out. */
let ip: string;

/** A fetch into the worker (contract-checked) from the test's client address. */
function from(address: string) {
  return (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set("CF-Connecting-IP", address);
    return contractFetch(request);
  };
}

function exchange(code: string, deviceName?: string, address = ip) {
  return exchangeEnrollmentCode(BASE, code, deviceName, { fetch: from(address) });
}

/** The exchange's refusal: status, code and description. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof EnrollmentError) return { status: err.status, error: err.error };
    throw err;
  }
  throw new Error("the exchange was not refused");
}

function refused(description: string) {
  return {
    status: 401,
    error: {
      code: "AUTHENTICATION_ERROR",
      description,
      source: `${BASE}/api/enroll`,
      status_code: 401,
    },
  };
}

const UNKNOWN = refused("Unknown enrollment code: check it and try again, or ask for a new one");
const USED = refused("This enrollment code has already been used: ask for a new one");
const EXPIRED = refused("This enrollment code has expired: ask for a new one");
const REVOKED = refused("This enrollment code has been revoked: ask for a new one");

async function makeCode(body: Record<string, unknown>) {
  const res = await call("/admin/enrollments", { method: "POST", headers: ADMIN, body });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; code: string; name: string; expires_at: string };
}

async function codeRow(id: string) {
  return env.DB.prepare("SELECT * FROM enrollment_codes WHERE id = ?1").bind(id).first<Record<string, unknown>>();
}

async function moveUse(id: string, msAgo: number) {
  await env.DB.prepare("UPDATE enrollment_codes SET used_at = ?1 WHERE id = ?2")
    .bind(new Date(Date.now() - msAgo).toISOString(), id)
    .run();
}

beforeAll(async () => {
  await seedFixture();
});

beforeEach(() => {
  lines = captureConsole();
  ip = `198.51.100.${++ipCounter}`;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /admin/enrollments", () => {
  it("makes a code for an agent: 201 with the code shown once, and lists it without the code", async () => {
    const res = await call("/admin/enrollments", {
      method: "POST",
      headers: ADMIN,
      body: { agent_id: 3, mode: "test", scopes: ["read"], expires_in: 600, key_expires_in: 7200 },
    });
    // D1 round trips: two for the administrator token's sign-in reservation (docs/specification.md section 2),
    // one for the code, its audit entry and the answer's fields.
    expect({ status: res.status, cache: res.headers.get("Cache-Control"), d1: workOf(res).d1, body: res.body }).toEqual(
      {
        status: 201,
        cache: "no-store",
        d1: 3,
        body: {
          data: {
            id: CODE_ID,
            code: CODE,
            agent_id: 3,
            mode: "test",
            scopes: ["read"],
            name: "Meena Iyer",
            expires_at: ISO,
            status: "pending",
          },
        },
      },
    );
    const made = res.body.data;
    const row = (await codeRow(made.id))!;
    expect(Date.parse(made.expires_at) - Date.parse(row.created_at as string)).toBe(600_000);
    const list = await call("/admin/enrollments", { headers: ADMIN });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toEqual({
      id: made.id,
      agent_id: 3,
      mode: "test",
      scopes: ["read"],
      name: "Meena Iyer",
      key_expires_in: 7200,
      created_at: row.created_at,
      expires_at: made.expires_at,
      used_at: null,
      revoked_at: null,
      key_id: null,
      status: "pending",
    });
    expect(list.text).not.toContain(made.code);
    expect(list.text).not.toContain(made.code.replaceAll("-", ""));
  });

  it("defaults: both scopes, 24 hours, the given name", async () => {
    const res = await call("/admin/enrollments", {
      method: "POST",
      headers: ADMIN,
      body: { agent_id: 1, mode: "live", name: "Asha's phone" },
    });
    expect(res.body.data).toMatchObject({ scopes: ["read", "write"], name: "Asha's phone", mode: "live" });
    const row = (await codeRow(res.body.data.id))!;
    expect(Date.parse(res.body.data.expires_at) - Date.parse(row.created_at as string)).toBe(86_400_000);
    expect(row.key_expires_in).toBeNull();
  });

  it("422 naming every broken field, the bounds included; an unknown agent; nothing made", async () => {
    const path = "/admin/enrollments";
    const post = (body: unknown) => call(path, { method: "POST", headers: ADMIN, body });
    const res = await post({
      mode: "prod",
      scopes: ["delete"],
      expires_in: 299,
      key_expires_in: 63_072_001,
      name: "",
      extra: 1,
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: validationEnvelope(path, [
        { field: "agent_id", message: "is required: the sales agent the key will be bound to" },
        { field: "mode", message: "must be one of test, live" },
        { field: "scopes", message: "has 'delete' that is not a scope: use read, write" },
        { field: "expires_in", message: "must be a whole number of seconds from 300 to 604800" },
        { field: "key_expires_in", message: "must be a whole number of seconds from 3600 to 63072000" },
        { field: "name", message: "must not be empty" },
        { field: "request", message: "has unknown field(s): extra" },
      ]),
    });
    for (const [field, value] of [
      ["expires_in", 604_801],
      ["key_expires_in", 3599],
      ["expires_in", 1.5],
    ] as const) {
      const bad = await post({ agent_id: 1, mode: "test", [field]: value });
      expect(bad.body.error.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
    for (const ok of [
      { expires_in: 300, key_expires_in: 3600 },
      { expires_in: 604_800, key_expires_in: 63_072_000 },
    ]) {
      expect((await post({ agent_id: 1, mode: "test", ...ok })).status).toBe(201);
    }
    const unknownAgent = await post({ agent_id: 999, mode: "test" });
    expect({ status: unknownAgent.status, body: unknownAgent.body }).toEqual({
      status: 422,
      body: validationEnvelope(path, [
        { field: "agent_id", message: "must be an existing sales agent's id: there is no sales agent 999" },
      ]),
    });
    const notJson = await call(path, {
      method: "POST",
      headers: { ...ADMIN, "Content-Type": "application/json" },
      body: "{",
    });
    expect(notJson.body).toEqual(errorEnvelope(400, "BAD_REQUEST", "The body is not valid JSON", path));
    const count = await env.DB.prepare("SELECT count(*) AS n FROM enrollment_codes WHERE agent_id = 999").first();
    expect(count).toEqual({ n: 0 });
  });

  it("needs the administrator", async () => {
    const res = await call("/admin/enrollments", { method: "POST", body: { agent_id: 1, mode: "test" } });
    expect(res.status).toBe(401);
    expect((await call("/admin/enrollments")).status).toBe(401);
  });
});

describe("POST /enroll", () => {
  it("201: a key bound to the code's agent, with its mode, scopes and expiry, that authenticates", async () => {
    const code = await makeCode({ agent_id: 3, mode: "test", scopes: ["read"], key_expires_in: 3600 });
    const { status, key } = await exchange(code.code, "Pixel 8");
    expect({ status, key }).toEqual({
      status: 201,
      key: {
        id: KEY_ID,
        name: "Meena Iyer (Pixel 8)",
        mode: "test",
        prefix: expect.stringMatching(/^sk_test_[0-9A-Za-z]{4}…$/),
        created_at: ISO,
        expires_at: ISO,
        revoked_at: null,
        replaces: null,
        replaced_by: null,
        scopes: ["read"],
        agent_id: 3,
        rotation: null,
        status: "active",
        secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/),
      },
    });
    expect(Date.parse(key.expires_at!) - Date.parse(key.created_at)).toBe(3_600_000);
    expect((await call("/api/customers", { key: key.secret })).status).toBe(200);
    expect((await call("/api/customers/create", { method: "POST", key: key.secret, body: {} })).status).toBe(403);
    const row = (await codeRow(code.id))!;
    expect({
      status: (await call("/admin/enrollments", { headers: ADMIN })).body.data[0].status,
      key: row.key_id,
    }).toEqual({
      status: "used",
      key: key.id,
    });
  });

  it("names the key by the code's name, then the device in brackets, cut to 100 characters; no expiry by default", async () => {
    const named = await makeCode({ agent_id: 1, mode: "test", name: "N".repeat(95) });
    const long = await exchange(named.code, "Galaxy A15");
    expect(long.key.name).toBe(`${"N".repeat(95)} (Gal`);
    expect(long.key.expires_at).toBeNull();
    const plain = await makeCode({ agent_id: 2, mode: "test" });
    expect((await exchange(plain.code, "   ")).key.name).toBe("Vikram Shetty");
    const bare = await makeCode({ agent_id: 2, mode: "test", name: "Route 7" });
    expect((await exchange(bare.code)).key.name).toBe("Route 7");
  });

  it("accepts a device name of any length and cuts the composed name to its first 100 code points; control characters are still 422", async () => {
    const code = await makeCode({ agent_id: 1, mode: "test", name: "Route 7" });
    const made = await exchange(code.code, "😀".repeat(150));
    expect(made.status).toBe(201);
    // "Route 7 (" is 9 code points: 91 emoji follow, each two UTF-16 units, none split.
    expect(made.key.name).toBe(`Route 7 (${"😀".repeat(91)}`);
    const plain = await makeCode({ agent_id: 1, mode: "test", name: "Route 8" });
    expect((await exchange(plain.code, "d".repeat(5_000))).key.name).toBe(`Route 8 (${"d".repeat(91)}`);
    const control = await call("/api/enroll", {
      method: "POST",
      body: { code: "x", device_name: `${"d".repeat(200)}\t` },
    });
    expect(control.body).toEqual(
      validationEnvelope("/api/enroll", [{ field: "device_name", message: "must not contain control characters" }]),
    );
  });

  it("reads the code in any letter case, with or without its dashes", async () => {
    for (const form of [
      (c: string) => c.toLowerCase(),
      (c: string) => c.replaceAll("-", ""),
      (c: string) => c.replaceAll("-", "").toLowerCase(),
    ]) {
      const code = await makeCode({ agent_id: 1, mode: "test" });
      expect((await exchange(form(code.code))).status).toBe(201);
    }
  });

  it("within 10 minutes the same code answers the same key and secret (200); after them 401 used, the secret erased", async () => {
    const code = await makeCode({ agent_id: 1, mode: "test" });
    const first = await exchange(code.code, "Moto G");
    const again = await exchange(code.code.toLowerCase(), "another name");
    expect(again).toEqual({ status: 200, key: first.key });
    await moveUse(code.id, WINDOW_MS - 5_000);
    expect(await exchange(code.code)).toEqual({ status: 200, key: first.key });
    await moveUse(code.id, WINDOW_MS);
    expect(await refusal(exchange(code.code))).toEqual(USED);
    expect(await codeRow(code.id)).toMatchObject({ secret_sealed: null, secret_salt: null, secret_iv: null });
    expect(await refusal(exchange(code.code))).toEqual(USED);
  });

  it("two exchanges at once make one key; both answers carry it", async () => {
    const code = await makeCode({ agent_id: 2, mode: "test" });
    const answers = await Promise.all([exchange(code.code), exchange(code.code), exchange(code.code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.key.secret)).size).toBe(1);
    const made = await env.DB.prepare("SELECT count(*) AS n FROM key_audit WHERE code_id = ?1 AND action = 'enroll'")
      .bind(code.id)
      .first();
    expect(made).toEqual({ n: 1 });
  });

  it("401 for an unknown, mistyped, expired or revoked code, saying which; WWW-Authenticate", async () => {
    const code = await makeCode({ agent_id: 1, mode: "test" });
    const wrong = code.code.slice(0, -1) + (code.code.endsWith("0") ? "1" : "0");
    expect(await refusal(exchange(wrong))).toEqual(UNKNOWN);
    expect(await refusal(exchange("not a code"))).toEqual(UNKNOWN);
    const res = await call("/enroll", { method: "POST", body: { code: wrong } });
    expect({ status: res.status, auth: res.headers.get("WWW-Authenticate"), body: res.body }).toEqual({
      status: 401,
      auth: "Bearer",
      body: errorEnvelope(401, "AUTHENTICATION_ERROR", UNKNOWN.error.description, "/enroll"),
    });
    await env.DB.prepare("UPDATE enrollment_codes SET expires_at = ?1 WHERE id = ?2")
      .bind(new Date(Date.now() - 1).toISOString(), code.id)
      .run();
    expect(await refusal(exchange(code.code))).toEqual(EXPIRED);

    const other = await makeCode({ agent_id: 1, mode: "test" });
    const revoked = await call(`/admin/enrollments/${other.id}/revoke`, { method: "POST", headers: ADMIN });
    expect({ status: revoked.status, data: revoked.body.data }).toMatchObject({
      status: 200,
      data: { id: other.id, status: "revoked", revoked_at: ISO },
    });
    expect(await refusal(exchange(other.code))).toEqual(REVOKED);
    // Nothing was made from any of them.
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM enrollment_codes WHERE key_id IS NOT NULL AND id IN (?1, ?2)")
        .bind(code.id, other.id)
        .first(),
    ).toEqual({ n: 0 });
  });

  it("422 for a body without a code or with a bad device name; 400 for one that is not JSON", async () => {
    const post = (body: unknown) => call("/api/enroll", { method: "POST", body });
    expect((await post({})).body).toEqual(
      validationEnvelope("/api/enroll", [{ field: "code", message: "is required: the code" }]),
    );
    expect((await post({ code: "x", device_name: "a\nb" })).body).toEqual(
      validationEnvelope("/api/enroll", [{ field: "device_name", message: "must not contain control characters" }]),
    );
    expect((await post({ code: 7, device_name: 7 })).body).toEqual(
      validationEnvelope("/api/enroll", [
        { field: "code", message: "is required: the code" },
        { field: "device_name", message: "must be text" },
      ]),
    );
    expect((await post({ code: "" })).body).toEqual(
      validationEnvelope("/api/enroll", [{ field: "code", message: "is required: the code" }]),
    );
    expect((await post({ code: "x".repeat(65) })).body).toEqual(
      validationEnvelope("/api/enroll", [{ field: "code", message: "must be at most 64 characters" }]),
    );
    expect((await post(["x"])).body).toEqual(
      validationEnvelope("/api/enroll", [{ field: "request", message: "must be a JSON object" }]),
    );
    // A null device name is no device name: the code is judged (unknown here), not the body.
    expect((await post({ code: "ZZZZ-ZZZZ-ZZZZ-ZZZZ", device_name: null })).status).toBe(401);
    const bad = await call("/api/enroll", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(bad.body).toEqual(errorEnvelope(400, "BAD_REQUEST", "The body is not valid JSON", "/api/enroll"));
  });
});

describe("failed exchanges are throttled per address", () => {
  const LOCKED = {
    status: 429,
    error: {
      code: "RATE_LIMITED",
      description: "Too many failed enrollment code exchanges from this address; retry later",
      source: `${BASE}/api/enroll`,
      status_code: 429,
    },
  };

  it("the 11th failure in 10 minutes is a 429 with Retry-After, even with a good code; other addresses go on", async () => {
    for (let i = 0; i < 10; i++) expect(await refusal(exchange("AAAA-AAAA-AAAA-AAAA"))).toEqual(UNKNOWN);
    const good = await makeCode({ agent_id: 1, mode: "test" });
    expect(await refusal(exchange(good.code))).toEqual(LOCKED);
    const res = await call("/enroll", {
      method: "POST",
      headers: { "CF-Connecting-IP": ip },
      body: { code: good.code },
    });
    expect({ status: res.status, retryAfter: Number(res.headers.get("Retry-After")) }).toEqual({
      status: 429,
      retryAfter: expect.any(Number),
    });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(590);
    expect((await exchange(good.code, undefined, "203.0.113.77")).status).toBe(201);
    const warnings = lines.filter((l) => l.text.includes("enrollment_exchange_failed"));
    expect(warnings).toHaveLength(10);
    expect(warnings.every((l) => l.method === "warn" && l.text.includes(`"address":"${ip}"`))).toBe(true);
  });

  it("holds under parallel attempts: of 25 at once, at most 10 are checked", async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, () => refusal(exchange("BBBB-BBBB-BBBB-BBBB"))));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
  });

  it("has a bucket of its own: failed sign-ins do not count against exchanges, nor the other way round", async () => {
    const signIn = (address: string) =>
      call("/admin/keys", { headers: { Authorization: "Bearer wrong-token", "CF-Connecting-IP": address } });
    for (let i = 0; i < 10; i++) expect((await signIn(ip)).status).toBe(401);
    expect((await signIn(ip)).status).toBe(429);
    const code = await makeCode({ agent_id: 1, mode: "test" });
    expect((await exchange(code.code)).status).toBe(201);

    const other = `${ip}0`;
    for (let i = 0; i < 10; i++)
      expect(await refusal(exchange("CCCC-CCCC-CCCC-CCCC", undefined, other))).toEqual(UNKNOWN);
    expect(await refusal(exchange("CCCC-CCCC-CCCC-CCCC", undefined, other))).toEqual(LOCKED);
    expect((await signIn(other)).body).toEqual(
      errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid administrator token", "/admin/keys"),
    );
  });
});

describe("revoking a code", () => {
  it("only a pending one: again is a no-op, a used one is a 409, an unknown one a 404", async () => {
    const code = await makeCode({ agent_id: 1, mode: "test" });
    const path = `/admin/enrollments/${code.id}/revoke`;
    const first = await call(path, { method: "POST", headers: ADMIN });
    const second = await call(path, { method: "POST", headers: ADMIN });
    expect(second.body).toEqual(first.body);
    const used = await makeCode({ agent_id: 1, mode: "test" });
    await exchange(used.code);
    const conflict = await call(`/admin/enrollments/${used.id}/revoke`, { method: "POST", headers: ADMIN });
    expect(conflict.body).toEqual(
      errorEnvelope(
        409,
        "CONFLICT",
        `Enrollment code ${used.id} is used: only a pending code can be revoked`,
        `/admin/enrollments/${used.id}/revoke`,
      ),
    );
    const unknown = await call("/admin/enrollments/enr_AAAAAAAAAAAAAAAA/revoke", { method: "POST", headers: ADMIN });
    expect(unknown.body).toEqual(
      errorEnvelope(
        404,
        "NOT_FOUND",
        "No enrollment code with id enr_AAAAAAAAAAAAAAAA",
        "/admin/enrollments/enr_AAAAAAAAAAAAAAAA/revoke",
      ),
    );
    const revokes = await env.DB.prepare(
      "SELECT count(*) AS n FROM key_audit WHERE code_id = ?1 AND action = 'revoke-code'",
    )
      .bind(code.id)
      .first();
    expect(revokes).toEqual({ n: 1 });
  });
});

describe("audit and secrecy", () => {
  it("writes enroll-code, enroll and revoke-code entries with code_id, in the admin API and never a code or secret", async () => {
    await env.DB.prepare("DELETE FROM key_audit").run();
    const code = await makeCode({ agent_id: 3, mode: "test", name: "Van 4" });
    const { key } = await exchange(code.code, "Tab");
    const revoked = await makeCode({ agent_id: 1, mode: "live" });
    await call(`/admin/enrollments/${revoked.id}/revoke`, { method: "POST", headers: ADMIN });
    const audit = await call("/admin/audit", { headers: ADMIN });
    const entry = (
      action: string,
      keyId: string | null,
      codeId: string,
      name: string,
      mode: string,
      actor: string,
    ) => ({
      at: ISO,
      action,
      key_id: keyId,
      new_key_id: null,
      code_id: codeId,
      key_name: name,
      mode,
      actor,
      session_id: null,
    });
    expect(audit.body.data).toEqual([
      entry("revoke-code", null, revoked.id, "Asha Rao", "live", "admin-api"),
      entry("enroll-code", null, revoked.id, "Asha Rao", "live", "admin-api"),
      entry("enroll", key.id, code.id, "Van 4 (Tab)", "test", "enrollment"),
      entry("enroll-code", null, code.id, "Van 4", "test", "admin-api"),
    ]);
  });

  it("no code or secret in clear in any D1 row, KV value or log line", async () => {
    const codes = [await makeCode({ agent_id: 1, mode: "test" }), await makeCode({ agent_id: 2, mode: "test" })];
    const secrets: string[] = [];
    for (const code of codes) {
      secrets.push((await exchange(code.code)).key.secret);
      await exchange(code.code);
    }
    expect(await refusal(exchange("DDDD-DDDD-DDDD-DDDD"))).toEqual(UNKNOWN);
    const needles = [
      ...codes.flatMap((c) => [c.code, c.code.replaceAll("-", ""), c.code.toLowerCase()]),
      ...secrets.flatMap((s) => [s, s.slice(8)]),
    ];
    const { results: tables } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{ name: string }>();
    let stored = "";
    for (const { name } of tables)
      stored += JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results);
    const { keys } = await env.KEYS.list();
    for (const { name } of keys) stored += name + (await env.KEYS.get(name));
    const logged = lines.map((l) => l.text).join("\n");
    expect(stored).toContain(codes[0]!.id);
    expect(lines.length).toBeGreaterThan(0);
    for (const needle of needles) {
      expect(stored).not.toContain(needle);
      expect(logged).not.toContain(needle);
    }
  });

  it("the daily job erases the sealed secrets past their window", async () => {
    const code = await makeCode({ agent_id: 1, mode: "test" });
    await exchange(code.code);
    const fresh = await makeCode({ agent_id: 1, mode: "test" });
    await exchange(fresh.code);
    await moveUse(code.id, WINDOW_MS + 1000);
    await scheduled({ cron: DAILY_RETENTION_CRON, scheduledTime: Date.now(), noRetry() {} }, env);
    expect(await codeRow(code.id)).toMatchObject({ secret_sealed: null, secret_salt: null, secret_iv: null });
    expect((await codeRow(fresh.id))!.secret_sealed).toEqual(expect.any(String));
  });
});

describe("faults", () => {
  it("D1 down: 503 with Retry-After and nothing leaked; a write batch that fails makes nothing; the code still works", async () => {
    const code = await makeCode({ agent_id: 2, mode: "test" });
    for (const db of [downD1(), failingWriteBatchD1()]) {
      const res = await callWithEnv({ DB: db }, "/enroll", {
        method: "POST",
        headers: { "CF-Connecting-IP": ip },
        body: { code: code.code },
      });
      expect({ status: res.status, retryAfter: res.headers.get("Retry-After"), code: res.body.error.code }).toEqual({
        status: 503,
        retryAfter: "5",
        code: "SERVICE_UNAVAILABLE",
      });
      expectNoLeak(res.text);
    }
    expect(await codeRow(code.id)).toMatchObject({ used_at: null, key_id: null, secret_sealed: null });
    expect((await exchange(code.code)).status).toBe(201);
  });
});

describe("GET /enroll", () => {
  it("answers 303 to the field app's enrollment screen, with no body and a relative Location (the fragment stays in the browser)", async () => {
    for (const path of ["/enroll", "/api/enroll"]) {
      const res = await call(path, { redirect: "manual" });
      expect({ status: res.status, location: res.headers.get("Location"), text: res.text }).toEqual({
        status: 303,
        location: "/app/enroll",
        text: "",
      });
    }
  });
});
