// Key usage: every request that passed authentication is counted (whatever its status), aggregated
// in the isolate and written to D1 after the response at most once per flush interval; the sums
// over 24 and 168 hours and the per-day series; nothing added to Server-Timing; retention.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index.ts";
import { hourOf } from "../../src/keys/keys.usage.ts";
import { toMinute, usageRecorder } from "../../src/keys/keys.usage.ts";
import { clearIsolateKeyCache } from "../../src/keys/keys.copy.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import { callWithEnv, downD1 } from "../helpers/faults.ts";
import { call } from "../helpers/http.ts";
import { alteredSecret, makeKey } from "../helpers/api-keys.ts";
import { captureConsole } from "../helpers/logs.ts";
import { workOf } from "../helpers/timing-header.ts";

async function usageRows(keyId: string): Promise<{ hour: number; requests: number }[]> {
  return (
    await env.DB.prepare("SELECT hour, requests FROM key_usage WHERE key_id = ?1 ORDER BY hour")
      .bind(keyId)
      .all<{ hour: number; requests: number }>()
  ).results;
}

async function written(keyId: string): Promise<number> {
  return (await usageRows(keyId)).reduce((sum, r) => sum + r.requests, 0);
}

/** Polls D1 until the key's written count is `n` (SELF.fetch does not wait for waitUntil), then checks it stays. */
async function expectWritten(keyId: string, n: number): Promise<void> {
  const start = Date.now();
  while ((await written(keyId)) < n && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 50));
  expect(await written(keyId)).toBe(n);
}

const rejectingLimiter = { limit: async () => ({ success: false }) } as unknown as RateLimit;

beforeEach(async () => {
  usageRecorder.reset();
  clearIsolateKeyCache();
  await env.DB.batch([env.DB.prepare("DELETE FROM api_keys"), env.DB.prepare("DELETE FROM key_usage")]);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("with a flush interval of 0 (the tests' setting): written after every request", () => {
  it("counts every authenticated request whatever its status, and no unauthenticated one", async () => {
    const { record, secret } = await makeKey({ name: "counted" });
    const other = await makeKey({ name: "other" });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call("/api/area", { key: secret })).status);
    statuses.push((await call("/api/customers?count=500", { key: secret })).status);
    statuses.push((await callWithEnv({ RATE_LIMITER: rejectingLimiter }, "/api/area", { key: secret })).status);
    const etag = (await call("/api/area", { key: secret })).headers.get("ETag")!;
    statuses.push((await call("/api/area", { key: secret, headers: { "If-None-Match": etag } })).status);
    expect(statuses).toEqual([200, 200, 200, 422, 429, 304]);
    // Not authenticated: not counted for anyone.
    expect((await call("/api/area", { key: alteredSecret(secret) })).status).toBe(401);
    expect((await call("/api/area")).status).toBe(401);
    await call("/api/area", { key: other.secret });

    await expectWritten(record.id, 7);
    await expectWritten(other.record.id, 1);
    expect(usageRecorder.unwritten).toBe(0);
    const listed = (await new KeyStore(env.KEYS, env.DB).listWithUsage()).find((k) => k.id === record.id)!;
    const lastUsed = (await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?1")
      .bind(record.id)
      .first<{ last_used_at: string }>())!.last_used_at;
    expect(lastUsed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    expect(Date.now() - Date.parse(lastUsed)).toBeLessThan(120_000);
    expect({
      last_used_at: listed.last_used_at,
      requests_24h: listed.requests_24h,
      requests_7d: listed.requests_7d,
      today: listed.daily.at(-1)!.requests,
    }).toEqual({
      last_used_at: lastUsed,
      requests_24h: 7,
      requests_7d: 7,
      today: 7,
    });
  });

  it("adds nothing to a request's Server-Timing counts", async () => {
    const { secret } = await makeKey();
    await call("/api/customers?count=1", { key: secret }); // warms what the isolate caches
    const off = await callWithEnv({ USAGE_FLUSH_SECONDS: "off" }, "/api/customers?count=1", { key: secret });
    const on = await callWithEnv({ USAGE_FLUSH_SECONDS: "0" }, "/api/customers?count=1", { key: secret });
    expect(workOf(on)).toEqual(workOf(off));
  });

  it('"off" records nothing', async () => {
    const { record, secret } = await makeKey();
    await callWithEnv({ USAGE_FLUSH_SECONDS: "off" }, "/api/area", { key: secret });
    expect(usageRecorder.unwritten).toBe(0);
    expect(await written(record.id)).toBe(0);
  });

  it("a failed write is one warning, and its counts are dropped, never written twice", async () => {
    const { record, secret } = await makeKey();
    const lines = captureConsole();
    await callWithEnv({ DB: downD1() }, "/api/area", { key: secret, headers: { "X-Request-Id": "usage-down" } });
    const warnings = lines.filter((l) => l.method === "warn").map((l) => JSON.parse(l.text));
    expect(warnings).toEqual([{ level: "warn", event: "key_usage_flush_failed", error: "Error", requests_dropped: 1 }]);
    vi.restoreAllMocks();
    await callWithEnv({}, "/api/area", { key: secret });
    expect(await written(record.id)).toBe(1);
  });
});

describe("with a flush interval above 0", () => {
  it("writes at most once per interval per isolate, and the counts are exact after it", async () => {
    const { record, secret } = await makeKey();
    const every1s = { USAGE_FLUSH_SECONDS: "1" };
    // callWithEnv waits for the request's waitUntil work: what D1 holds afterwards is all there is.
    await callWithEnv(every1s, "/api/area", { key: secret });
    expect(await written(record.id)).toBe(1); // the isolate's first flush: nothing written before
    for (let i = 0; i < 4; i++) await callWithEnv(every1s, "/api/area", { key: secret });
    expect(await written(record.id)).toBe(1);
    expect(usageRecorder.unwritten).toBe(4);
    await new Promise((r) => setTimeout(r, 1050));
    await callWithEnv(every1s, "/api/area", { key: secret });
    expect(await written(record.id)).toBe(6);
    expect(usageRecorder.unwritten).toBe(0);
  });
});

describe("reading the usage", () => {
  it("sums the last 24 and 168 whole-or-current hours, and a series of the last 30 days", async () => {
    const now = Date.parse("2026-05-31T10:30:00.000Z");
    const h = hourOf(now);
    const { record } = await makeKey();
    const rows: [number, number][] = [
      [h, 1], // this hour
      [h - 23, 2], // the 24th hour back: in both
      [h - 24, 4], // the 25th: 7 days only
      [h - 167, 8], // the 168th: 7 days
      [h - 168, 16], // the 169th: neither
      [h - 29 * 24 - 10, 32], // 2026-05-02: the series' first day
      [h - 30 * 24 - 10, 64], // 2026-05-01: outside the series
    ];
    await env.DB.batch(
      rows.map(([hour, n]) =>
        env.DB.prepare("INSERT INTO key_usage (key_id, hour, requests) VALUES (?1, ?2, ?3)").bind(record.id, hour, n),
      ),
    );
    await env.DB.prepare("UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2").bind(toMinute(now), record.id).run();
    const [listed] = await new KeyStore(env.KEYS, env.DB, () => new Date(now)).listWithUsage();
    expect(listed!.last_used_at).toBe("2026-05-31T10:30:00Z");
    expect([listed!.requests_24h, listed!.requests_7d]).toEqual([1 + 2, 1 + 2 + 4 + 8]);
    expect(listed!.daily).toHaveLength(30);
    expect(listed!.daily[0]).toEqual({ date: "2026-05-02", requests: 32 });
    // 10:00 today is this hour; the 24th hour back is 11:00 yesterday.
    expect(listed!.daily.slice(-2)).toEqual([
      { date: "2026-05-30", requests: 2 + 4 },
      { date: "2026-05-31", requests: 1 },
    ]);
    expect(listed!.daily.reduce((sum, d) => sum + d.requests, 0)).toBe(1 + 2 + 4 + 8 + 16 + 32);
    // A key never used: zeros and null.
    const fresh = await makeKey({ name: "unused" });
    const unused = (await new KeyStore(env.KEYS, env.DB, () => new Date(now)).listWithUsage()).find(
      (k) => k.id === fresh.record.id,
    )!;
    expect([
      unused.last_used_at,
      unused.requests_24h,
      unused.requests_7d,
      unused.daily.every((d) => d.requests === 0),
    ]).toEqual([null, 0, 0, true]);
  });
});

describe("retention (the daily cron trigger)", () => {
  it("deletes usage older than 30 days and audit entries older than 400 days", async () => {
    const now = Date.parse("2026-05-31T03:17:00.000Z");
    const h = hourOf(now);
    const day = 86_400_000;
    await env.DB.batch([
      env.DB.prepare("DELETE FROM key_audit"),
      ...[h - 720, h - 719, h].map((hour) =>
        env.DB.prepare("INSERT INTO key_usage (key_id, hour, requests) VALUES ('key_r', ?1, 1)").bind(hour),
      ),
      ...[now - 400 * day - 1, now - 400 * day, now].map((at) =>
        env.DB.prepare(
          "INSERT INTO key_audit (at, action, key_id, key_name, mode, actor) VALUES (?1, 'create', 'key_r', 'r', 'test', 'cli')",
        ).bind(new Date(at).toISOString()),
      ),
    ]);
    const lines = captureConsole();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await usageRows("key_r")).map((r) => r.hour)).toEqual([h - 719, h]);
    const audit = await env.DB.prepare("SELECT at FROM key_audit ORDER BY at").all<{ at: string }>();
    expect(audit.results.map((r) => r.at)).toEqual([
      new Date(now - 400 * day).toISOString(),
      new Date(now).toISOString(),
    ]);
    expect(lines.map((l) => [l.method, JSON.parse(l.text)])).toEqual([
      [
        "log",
        {
          event: "key_retention",
          cron: "17 3 * * *",
          usage_rows_deleted: 1,
          audit_rows_deleted: 1,
          sealed_secrets_erased: 0,
          keys_deleted: 0,
          codes_deleted: 0,
        },
      ],
      [
        "log",
        { level: "info", event: "sync_retention", cron: "17 3 * * *", tombstones_purged: 0, tombstones_left: false },
      ],
    ]);
  });

  it("deletes keys revoked, expired or replaced more than 90 days ago with their copies and usage, and codes dead as long; the audit stays", async () => {
    const now = Date.parse("2026-09-01T03:17:00.000Z");
    const day = 86_400_000;
    const ago = (days: number) => new Date(now - days * day).toISOString();
    const h = hourOf(now);
    const keys = [
      ["key_DeadRevoked0000001", ago(91), null],
      ["key_DeadExpired0000001", null, ago(91)],
      // Rolled or rotated: replaced, its grace (its expiry) ended 91 days ago.
      ["key_DeadReplaced000001", null, ago(91)],
      ["key_KeptRevoked0000001", ago(89), null],
      ["key_KeptExpiring000001", null, ago(-30)],
      ["key_KeptActive00000001", null, null],
    ] as const;
    await env.DB.batch([
      env.DB.prepare("DELETE FROM api_keys"),
      env.DB.prepare("DELETE FROM key_audit"),
      env.DB.prepare("DELETE FROM key_usage"),
      env.DB.prepare("DELETE FROM enrollment_codes"),
      ...keys.flatMap(([id, revoked, expires]) => [
        env.DB.prepare(
          "INSERT INTO api_keys (id, name, mode, prefix, hash, created_at, revoked_at, expires_at, lineage_id) " +
            "VALUES (?1, 'k', 'test', 'sk_test_x…', ?1 || '-hash', ?2, ?3, ?4, ?1)",
        ).bind(id, ago(200), revoked, expires),
        env.DB.prepare("INSERT INTO key_usage (key_id, hour, requests) VALUES (?1, ?2, 1)").bind(id, h),
        env.DB.prepare(
          "INSERT INTO key_audit (at, action, key_id, key_name, mode, actor) VALUES (?1, 'create', ?2, 'k', 'test', 'cli')",
        ).bind(ago(200), id),
      ]),
      ...(
        [
          ["enr_DeadUsed000000001", ago(88), ago(91), null],
          ["enr_DeadExpired000001", ago(92), null, null],
          ["enr_DeadRevoked000001", ago(88), null, ago(91)],
          ["enr_KeptUsed000000001", ago(85), ago(89), null],
          ["enr_KeptPending000001", ago(-1), null, null],
        ] as const
      )
        // A code is used or revoked before it expires.
        .map(([id, expires, used, revoked]) =>
          env.DB.prepare(
            "INSERT INTO enrollment_codes (id, code_hash, agent_id, mode, scopes, name, created_at, expires_at, used_at, revoked_at) " +
              "VALUES (?1, ?1, 1, 'test', 'read', 'c', ?2, ?3, ?4, ?5)",
          ).bind(id, ago(100), expires, used, revoked),
        ),
    ]);
    for (const [id] of keys) await env.KEYS.put(`hash:${id}-hash`, "{}");
    const lines = captureConsole();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const kept = ["key_KeptActive00000001", "key_KeptExpiring000001", "key_KeptRevoked0000001"];
    const ids = async (sql: string) => (await env.DB.prepare(sql).all<{ id: string }>()).results.map((r) => r.id);
    expect(await ids("SELECT id FROM api_keys ORDER BY id")).toEqual(kept);
    expect(await ids("SELECT key_id AS id FROM key_usage ORDER BY key_id")).toEqual(kept);
    expect(await ids("SELECT key_id AS id FROM key_audit ORDER BY key_id")).toEqual(keys.map(([id]) => id).sort());
    expect(await ids("SELECT id FROM enrollment_codes ORDER BY id")).toEqual([
      "enr_KeptPending000001",
      "enr_KeptUsed000000001",
    ]);
    const copies = await Promise.all(keys.map(async ([id]) => [id, await env.KEYS.get(`hash:${id}-hash`)]));
    expect(copies.filter(([, copy]) => copy !== null).map(([id]) => id)).toEqual([
      "key_KeptRevoked0000001",
      "key_KeptExpiring000001",
      "key_KeptActive00000001",
    ]);
    expect(JSON.parse(lines[0]!.text)).toMatchObject({ event: "key_retention", keys_deleted: 3, codes_deleted: 3 });
  });
});
