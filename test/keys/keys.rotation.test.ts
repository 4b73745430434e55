// Rotation that the apps carry out (docs/specification.md section 9): marking keys due (admin API),
// `Key-Rotation: due` from the KV due set with no D1 read, POST /keys/rotate and its retry, the race,
// the refusals, the first-use cut and the late uses, a roll's cancel, the audit, the typed client's
// helper, and no secret in clear anywhere.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { KeyRotationError, keyRotation, type StoredKey } from "@order-lookup/client";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index.ts";
import { ISOLATE_KEY_TTL_MS } from "../../src/keys/keys.copy.ts";
import { displayPrefix, hashSecret, newKeyId, newSecret } from "../../src/keys/keys.secret.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import { usageRecorder } from "../../src/keys/keys.usage.ts";
import { PENDING_COPIES_CRON } from "../../src/scheduled.ts";
import { alteredSecret, clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { callWithEnv, failingPutKV } from "../helpers/faults.ts";
import { BASE, call, type CallResult, contractFetch, errorEnvelope, validationEnvelope } from "../helpers/http.ts";
import { captureConsole } from "../helpers/logs.ts";
import { seedFixture } from "../helpers/seed.ts";
import { workOf } from "../helpers/timing-header.ts";

const ADMIN = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const ROTATE = "/api/keys/rotate";
const MARK = "/admin/keys/rotation";
const T0 = Date.parse("2026-06-01T08:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const KEY_ID = expect.stringMatching(/^key_[0-9A-Za-z]{16}$/);

const mark = (body: unknown) => call(MARK, { method: "POST", headers: ADMIN, body });
const rotate = (secret: string, body?: unknown) => call(ROTATE, { method: "POST", key: secret, body });
/** A request whose background work (the first-use report, the usage flush) has finished when it answers. */
const use = (secret: string, path = "/api/area") => callWithEnv({}, path, { key: secret });

async function adminKey(id: string): Promise<Record<string, any>> {
  const { body } = await call("/admin/keys", { headers: ADMIN });
  return (body.data as Record<string, any>[]).find((k) => k.id === id)!;
}

async function keyCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM api_keys").first<{ n: number }>())!.n;
}

async function runJob(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: PENDING_COPIES_CRON }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** Everything at rest: every D1 table's rows and every KV entry with its value. */
async function everythingStored(): Promise<string> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables)
    parts.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results));
  for (const { name } of (await env.KEYS.list()).keys) parts.push(name, String(await env.KEYS.get(name)));
  return parts.join("\n");
}

/** `n` keys of agent 1 written as the store writes them (record, then copy), faster than n creates. */
async function makeFleet(n: number): Promise<{ id: string; secret: string; hash: string }[]> {
  const fleet = await Promise.all(
    Array.from({ length: n }, async () => {
      const secret = newSecret("test");
      return { id: newKeyId(), secret, hash: await hashSecret(secret) };
    }),
  );
  const insert = env.DB.prepare(
    "INSERT INTO api_keys (id, name, mode, prefix, hash, created_at, scopes, agent_id) VALUES (?1, ?2, 'test', ?3, ?4, ?5, 'read,write', 1)",
  );
  await env.DB.batch(
    fleet.map((k, i) => insert.bind(k.id, `phone ${i}`, displayPrefix(k.secret), k.hash, new Date().toISOString())),
  );
  const records = await new KeyStore(env.KEYS, env.DB).list();
  await Promise.all(records.map((r) => env.KEYS.put(`hash:${r.hash}`, JSON.stringify(r))));
  return fleet;
}

function rotationHeader(res: CallResult): string | null {
  return res.headers.get("Key-Rotation");
}

beforeAll(async () => {
  await seedFixture();
});

beforeEach(async () => {
  clearIsolateCaches();
  usageRecorder.reset();
  await env.DB.batch([env.DB.prepare("DELETE FROM api_keys"), env.DB.prepare("DELETE FROM key_audit")]);
  // Earlier tests' key copies may stay (each secret is new); the due set may not.
  await env.KEYS.delete("rotation:due");
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("POST /admin/keys/rotation", () => {
  it("marks active keys by ids, by mode and by agent, each once, with one audit entry per key marked", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const a = await makeKey({ name: "van 1", agentId: 1 });
    const b = await makeKey({ name: "office" });
    const c = await makeKey({ name: "live van 1", mode: "live", agentId: 1 });
    const revoked = await makeKey({ name: "gone" });
    await new KeyStore(env.KEYS, env.DB).revoke(revoked.record.id, { actor: "cli" });

    expect((await mark({ ids: [a.record.id] })).body).toEqual({ data: { requested: 1 } });
    // Already due: not marked again, not counted, no second entry.
    expect((await mark({ ids: [a.record.id] })).body).toEqual({ data: { requested: 0 } });
    vi.setSystemTime(T0 + 1000);
    expect((await mark({ mode: "test" })).body).toEqual({ data: { requested: 1 } });
    vi.setSystemTime(T0 + 2000);
    const byAgent = await mark({ agent_id: 1 });
    expect({ status: byAgent.status, body: byAgent.body }).toEqual({ status: 200, body: { data: { requested: 1 } } });

    const due = (at: number) => ({
      state: "due",
      requested_at: iso(at),
      rotated_at: null,
      successor_id: null,
      old_key_uses_after_successor: 0,
    });
    expect(await Promise.all([a, b, c, revoked].map(async (k) => (await adminKey(k.record.id)).rotation))).toEqual([
      due(T0),
      due(T0 + 1000),
      due(T0 + 2000),
      null,
    ]);
    const { body: audit } = await call("/admin/audit", { headers: ADMIN });
    expect(audit.data.filter((e: any) => e.action === "rotation-requested").reverse()).toEqual(
      [
        [a, T0],
        [b, T0 + 1000],
        [c, T0 + 2000],
      ].map(([k, at]) => ({
        at: iso(at as number),
        action: "rotation-requested",
        key_id: (k as typeof a).record.id,
        new_key_id: null,
        code_id: null,
        key_name: (k as typeof a).record.name,
        mode: (k as typeof a).record.mode,
        actor: "admin-api",
        session_id: null,
      })),
    );
  });

  it("narrows by every filter given together: mode and agent", async () => {
    const testVan = await makeKey({ name: "test van", agentId: 1 });
    await makeKey({ name: "live van", mode: "live", agentId: 1 });
    await makeKey({ name: "test van 2", agentId: 2 });
    expect((await mark({ mode: "test", agent_id: 1 })).body).toEqual({ data: { requested: 1 } });
    expect((await adminKey(testVan.record.id)).rotation.state).toBe("due");
  });

  it("answers 422 naming every broken field, and marks nothing", async () => {
    const k = await makeKey();
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{}, [{ field: "request", message: "must name ids, mode or agent_id (at least one)" }]],
      [
        { ids: "key_0000000000000000", mode: "prod", agent_id: 0 },
        [
          { field: "ids", message: "must be a list of 1 to 1000 key ids (key_ and 16 letters or digits)" },
          { field: "mode", message: "must be one of test, live" },
          { field: "agent_id", message: "must be a sales agent's id: a whole number from 1" },
        ],
      ],
      [{ ids: [] }, [{ field: "ids", message: "must be a list of 1 to 1000 key ids (key_ and 16 letters or digits)" }]],
      [{ ids: ["key_0000000000000000"] }, [{ field: "ids", message: "names no key: key_0000000000000000" }]],
      [{ mode: "test", everything: true }, [{ field: "request", message: "has unknown field(s): everything" }]],
    ];
    for (const [body, fields] of cases) {
      const res = await mark(body);
      expect({ body, status: res.status, answer: res.body }).toEqual({
        body,
        status: 422,
        answer: validationEnvelope(MARK, fields),
      });
    }
    expect((await mark("not json")).status).toBe(400);
    expect((await adminKey(k.record.id)).rotation).toBeNull();
    expect((await call("/admin/audit", { headers: ADMIN })).body.data.map((e: any) => e.action)).toEqual(["create"]);
  });

  it("needs the administrator", async () => {
    const k = await makeKey();
    const res = await call(MARK, { method: "POST", key: k.secret, body: { mode: "test" } });
    expect(res.status).toBe(401);
    expect((await adminKey(k.record.id)).rotation).toBeNull();
  });
});

describe("Key-Rotation: due", () => {
  it("is on every answer to a due key, errors included, and on no other key's; with no D1 read", async () => {
    const due = await makeKey({ name: "due" });
    const other = await makeKey({ name: "other" });
    await mark({ ids: [due.record.id] });
    clearIsolateCaches();
    // The area list's lookup-cache entry filled first, so that the key's own work is what is left.
    await call("/api/area", { key: other.secret });
    const answered = await call("/api/area", { key: due.secret });
    expect({ status: answered.status, header: rotationHeader(answered), d1: workOf(answered).d1 }).toEqual({
      status: 200,
      header: "due",
      d1: 0,
    });
    const invalid = await call("/api/customers?count=500", { key: due.secret });
    expect({ status: invalid.status, header: rotationHeader(invalid) }).toEqual({ status: 422, header: "due" });
    const plain = await call("/api/area", { key: other.secret });
    expect({ status: plain.status, header: rotationHeader(plain) }).toEqual({ status: 200, header: null });
    const refused = await call("/api/area", { key: alteredSecret(due.secret) });
    expect({ status: refused.status, header: rotationHeader(refused) }).toEqual({ status: 401, header: null });
  });

  it("reaches a running isolate within the key cache time, and is carried in the copies once the job rewrites them", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const k = await makeKey();
    expect(rotationHeader(await call("/api/area", { key: k.secret }))).toBeNull();
    // Marked by another process (the command line): this isolate's caches are not told.
    await new KeyStore(env.KEYS, env.DB).requestRotation({ ids: [k.record.id] }, { actor: "cli" });
    vi.setSystemTime(T0 + ISOLATE_KEY_TTL_MS);
    expect(rotationHeader(await call("/api/area", { key: k.secret }))).toBe("due");
    // A lost due-set write: the job rewrites the set from D1.
    await env.KEYS.delete("rotation:due");
    await runJob();
    expect(await env.KEYS.get("rotation:due", "json")).toEqual([k.record.id]);
  });

  it("does not show a mark that authentication sees through the due set as a pending copy; the job still writes the copy", async () => {
    const k = await makeKey();
    // A copy that failed before the mark stays pending through it.
    const failed = await makeKey({ name: "failed copy" });
    await env.DB.prepare("UPDATE api_keys SET copy_pending = 1 WHERE id = ?1").bind(failed.record.id).run();
    expect((await mark({ ids: [k.record.id, failed.record.id] })).body).toEqual({ data: { requested: 2 } });
    expect(await env.KEYS.get("rotation:due", "json")).toEqual([k.record.id, failed.record.id].sort());
    const listed = (await call("/admin/keys", { headers: ADMIN })).body.data;
    expect(listed.map((key: any) => [key.id, key.rotation.state, key.copy_pending]).sort()).toEqual(
      [
        [k.record.id, "due", false],
        [failed.record.id, "due", true],
      ].sort(),
    );
    await runJob();
    const copy = await env.KEYS.get<Record<string, any>>(`hash:${k.record.hash}`, "json");
    expect(copy!.rotation.state).toBe("due");
    const rows = await env.DB.prepare("SELECT copy_pending FROM api_keys ORDER BY id").all();
    expect(rows.results).toEqual([{ copy_pending: 0 }, { copy_pending: 0 }]);
  });

  it("falls back on the copies when the due-set write fails: the job writes each copy with its state", async () => {
    const k = await makeKey();
    const lines = captureConsole();
    const res = await callWithEnv({ KEYS: failingPutKV(env.KEYS) }, MARK, {
      method: "POST",
      headers: ADMIN,
      body: { ids: [k.record.id] },
    });
    expect(res.body).toEqual({ data: { requested: 1 } });
    expect(lines.some((l) => l.text.includes("rotation_due_set_pending"))).toBe(true);
    expect((await adminKey(k.record.id)).copy_pending).toBe(true);
    await runJob();
    const copy = await env.KEYS.get<Record<string, any>>(`hash:${k.record.hash}`, "json");
    expect(copy!.rotation.state).toBe("due");
    await env.KEYS.delete("rotation:due");
    clearIsolateCaches();
    expect(rotationHeader(await call("/api/area", { key: k.secret }))).toBe("due");
  });
});

describe("POST /keys/rotate", () => {
  it("answers 201 with the successor, keeps the old key 7 days with the header, and a retry gets the same successor (200)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const old = await makeKey({ name: "van 7", scopes: ["read"], agentId: 1, expiresInSeconds: 30 * 86_400 });
    await mark({ ids: [old.record.id] });
    const lines = captureConsole();

    const first = await rotate(old.secret);
    const successor = {
      id: KEY_ID,
      name: "van 7",
      mode: "test",
      prefix: expect.stringMatching(/^sk_test_[0-9A-Za-z]{4}…$/),
      created_at: iso(T0),
      expires_at: old.record.expires_at,
      scopes: ["read"],
      agent_id: 1,
      replaces: old.record.id,
      secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/),
    };
    expect({ status: first.status, header: rotationHeader(first), body: first.body }).toEqual({
      status: 201,
      header: "due",
      body: { data: successor },
    });
    const { id, secret } = first.body.data;
    expect(await keyCount()).toBe(2);

    const retry = await rotate(old.secret);
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    expect(await keyCount()).toBe(2);

    expect(await adminKey(old.record.id)).toMatchObject({
      status: "grace",
      expires_at: iso(T0 + 7 * 86_400_000),
      rotation: {
        state: "rotated",
        requested_at: iso(T0),
        rotated_at: iso(T0),
        successor_id: id,
        old_key_uses_after_successor: 0,
      },
    });
    expect(await adminKey(id)).toMatchObject({ status: "active", rotation: null, replaces: old.record.id });
    const { body: audit } = await call("/admin/audit?limit=1", { headers: ADMIN });
    expect(audit.data).toEqual([
      {
        at: iso(T0),
        action: "rotate",
        key_id: old.record.id,
        new_key_id: id,
        code_id: null,
        key_name: "van 7",
        mode: "test",
        actor: "key",
        session_id: null,
      },
    ]);

    const oldAnswer = await call("/api/area", { key: old.secret });
    expect([oldAnswer.status, rotationHeader(oldAnswer)]).toEqual([200, "due"]);
    const newAnswer = await call("/api/area", { key: secret });
    expect([newAnswer.status, rotationHeader(newAnswer)]).toEqual([200, null]);

    // No secret in clear at rest or in a log line; the sealed copy opens only with the old secret.
    const stored = await everythingStored();
    const logged = lines.map((l) => l.text).join("\n");
    for (const s of [old.secret, secret]) {
      expect(stored).not.toContain(s.slice(8));
      expect(logged).not.toContain(s.slice(8));
    }
  });

  it("takes a key of any scope and the grace in the body; 7 days at most, never past the old key's expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const writeOnly = await makeKey({ scopes: ["write"] });
    const shortLived = await makeKey({ expiresInSeconds: 120 });
    // Fresh keys rotate only when due (section 9).
    await mark({ ids: [writeOnly.record.id, shortLived.record.id] });
    const res = await rotate(writeOnly.secret, { grace: 60 });
    expect(res.status).toBe(201);
    expect((await adminKey(writeOnly.record.id)).expires_at).toBe(iso(T0 + 60_000));
    await rotate(shortLived.secret);
    expect((await adminKey(shortLived.record.id)).expires_at).toBe(iso(T0 + 120_000));

    const k = await makeKey();
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{ grace: -1 }, [{ field: "grace", message: "must be a whole number of seconds from 0 to 604800" }]],
      [{ grace: 604_801 }, [{ field: "grace", message: "must be a whole number of seconds from 0 to 604800" }]],
      [{ grace: "60" }, [{ field: "grace", message: "must be a whole number of seconds from 0 to 604800" }]],
      [
        { grace: 1.5, other: 1 },
        [
          { field: "grace", message: "must be a whole number of seconds from 0 to 604800" },
          { field: "request", message: "has unknown field(s): other" },
        ],
      ],
      [[], [{ field: "request", message: "must be a JSON object" }]],
    ];
    for (const [body, fields] of cases) {
      const bad = await rotate(k.secret, body);
      expect({ body, status: bad.status, answer: bad.body }).toEqual({
        body,
        status: 422,
        answer: validationEnvelope(ROTATE, fields),
      });
    }
    const notJson = await call(ROTATE, {
      method: "POST",
      key: k.secret,
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect({ status: notJson.status, body: notJson.body }).toEqual({
      status: 400,
      body: errorEnvelope(400, "BAD_REQUEST", "The body is not valid JSON", ROTATE),
    });
    expect(await keyCount()).toBe(5);
  });

  it("two racing rotates of one key: exactly one successor, both answers carry it", async () => {
    const old = await makeKey();
    await mark({ ids: [old.record.id] });
    const answers = await Promise.all([rotate(old.secret), rotate(old.secret)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body).toEqual(answers[1]!.body);
    const { results } = await env.DB.prepare("SELECT id FROM api_keys WHERE rolled_from = ?1")
      .bind(old.record.id)
      .all<{ id: string }>();
    expect(results).toEqual([{ id: answers[0]!.body.data.id }]);
    const audit = (await call("/admin/audit", { headers: ADMIN })).body.data;
    expect(audit.filter((e: any) => e.action === "rotate")).toHaveLength(1);
  });

  it("after the successor's first use: the old key works one more hour, its later uses (not the first minute's) counted, a rotate refused", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const old = await makeKey({ name: "phone" });
    await mark({ ids: [old.record.id] });
    const { id, secret } = (await rotate(old.secret)).body.data;

    vi.setSystemTime(T0 + 1000);
    expect((await use(secret)).status).toBe(200);
    const record = await new KeyStore(env.KEYS, env.DB).get(old.record.id);
    expect({ first: record!.successor_first_used_at, expires: record!.expires_at }).toEqual({
      first: iso(T0 + 1000),
      expires: iso(T0 + 1000 + 3_600_000),
    });
    // The sealed successor secret is gone with the retry.
    const sealed = await env.DB.prepare("SELECT successor_secret_sealed AS s FROM api_keys WHERE id = ?1")
      .bind(old.record.id)
      .first<{ s: string | null }>();
    expect(sealed!.s).toBeNull();

    // Within the minute of requests in flight: not counted.
    vi.setSystemTime(T0 + 30_000);
    const inFlight = await use(old.secret);
    expect([inFlight.status, rotationHeader(inFlight)]).toEqual([200, "due"]);
    vi.setSystemTime(T0 + 61_000);
    const refused = await callWithEnv({}, ROTATE, { method: "POST", key: old.secret });
    expect({ status: refused.status, header: rotationHeader(refused), body: refused.body }).toEqual({
      status: 409,
      header: "due",
      body: errorEnvelope(409, "CONFLICT", `Key ${old.record.id} is already rotated: use the successor`, ROTATE),
    });
    expect((await use(old.secret)).status).toBe(200);
    expect((await adminKey(old.record.id)).rotation).toEqual({
      state: "rotated",
      requested_at: iso(T0),
      rotated_at: iso(T0),
      successor_id: id,
      old_key_uses_after_successor: 2,
    });

    vi.setSystemTime(T0 + 1000 + 3_600_000);
    clearIsolateCaches();
    const stopped = await call("/api/area", { key: old.secret });
    expect({ status: stopped.status, header: rotationHeader(stopped), body: stopped.body }).toEqual({
      status: 401,
      header: null,
      body: errorEnvelope(
        401,
        "AUTHENTICATION_ERROR",
        "Invalid API key: the key was replaced by rotation and its time has ended; use its successor",
        "/api/area",
      ),
    });
    expect((await call("/api/area", { key: secret })).status).toBe(200);
  });

  it("a key with no rotation due rotates itself only once 24 hours old; younger, 409 rotated too recently and nothing made", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const k = await makeKey({ name: "young" });
    vi.setSystemTime(T0 + 86_400_000 - 1);
    const young = await rotate(k.secret);
    expect({ status: young.status, body: young.body }).toEqual({
      status: 409,
      body: errorEnvelope(
        409,
        "CONFLICT",
        `Key ${k.record.id} was rotated too recently: with no rotation due, a key may rotate itself once it is 24 hours old (from ${iso(T0 + 86_400_000)})`,
        ROTATE,
      ),
    });
    expect(await keyCount()).toBe(1);
    vi.setSystemTime(T0 + 86_400_000);
    const aged = await rotate(k.secret);
    expect(aged.status).toBe(201);
    // Its successor is young and not due: it cannot rotate on; once marked due, it can.
    const next = aged.body.data;
    expect((await rotate(next.secret)).status).toBe(409);
    await mark({ ids: [next.id] });
    expect((await rotate(next.secret)).status).toBe(201);
    expect(await keyCount()).toBe(3);
    // Every key of the chain carries its root as its lineage, on its own row.
    const { results } = await env.DB.prepare("SELECT DISTINCT lineage_id FROM api_keys").all();
    expect(results).toEqual([{ lineage_id: k.record.id }]);
  });

  it("a chain of 200 rotations attempted from one key makes at most one successor a day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0 - 25 * 3_600_000);
    const first = await makeKey({ name: "pulled out of an app" });
    vi.setSystemTime(T0);
    let secret = first.secret;
    const statuses: Record<number, number> = {};
    // 200 attempts over 23 hours, each with the newest key of the chain.
    for (let i = 0; i < 200; i++) {
      vi.setSystemTime(T0 + i * 414_000);
      const res = await rotate(secret);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 201) secret = res.body.data.secret;
    }
    expect(statuses).toEqual({ 201: 1, 409: 199 });
    expect(await keyCount()).toBe(2);
  }, 60_000);

  it("refuses a revoked, an expired, a rolled and a stopped old key", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const store = new KeyStore(env.KEYS, env.DB);
    const revoked = await makeKey();
    await store.revoke(revoked.record.id, { actor: "cli" });
    const expiring = await makeKey({ expiresInSeconds: 60 });
    const rolled = await makeKey();
    const replacement = await store.roll(rolled.record.id, 600, { actor: "cli" });
    const stopped = await makeKey();
    await mark({ ids: [stopped.record.id] });
    expect((await rotate(stopped.secret, { grace: 0 })).status).toBe(201);
    vi.setSystemTime(T0 + 60_000);
    clearIsolateCaches();
    const auth = (description: string) => errorEnvelope(401, "AUTHENTICATION_ERROR", description, ROTATE);
    const answers = await Promise.all([revoked, expiring, rolled, stopped].map((k) => rotate(k.secret)));
    expect(answers.map((a) => ({ status: a.status, body: a.body }))).toEqual([
      { status: 401, body: auth("Invalid API key: the key has been revoked") },
      { status: 401, body: auth("Invalid API key: the key has expired") },
      {
        status: 409,
        body: errorEnvelope(
          409,
          "CONFLICT",
          `Key ${rolled.record.id} was rolled (its replacement is ${replacement!.record.id}): a rolled key cannot rotate; use its replacement`,
          ROTATE,
        ),
      },
      {
        status: 401,
        body: auth("Invalid API key: the key was replaced by rotation and its time has ended; use its successor"),
      },
    ]);
    expect(await keyCount()).toBe(6);
  });
});

describe("the successor's secret kept for a retry", () => {
  it("is erased once the old key stops: at its revocation, and by the 5-minute job after its time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const sealedOf = async (id: string) =>
      (await env.DB.prepare("SELECT successor_secret_sealed AS s FROM api_keys WHERE id = ?1")
        .bind(id)
        .first<{ s: string | null }>())!.s;
    const revoked = await makeKey();
    const timedOut = await makeKey();
    await mark({ ids: [revoked.record.id, timedOut.record.id] });
    expect((await rotate(revoked.secret)).status).toBe(201);
    expect((await rotate(timedOut.secret, { grace: 60 })).status).toBe(201);
    expect([await sealedOf(revoked.record.id), await sealedOf(timedOut.record.id)]).toEqual([
      expect.stringMatching(/^v1\./),
      expect.stringMatching(/^v1\./),
    ]);
    await new KeyStore(env.KEYS, env.DB).revoke(revoked.record.id, { actor: "cli" });
    expect(await sealedOf(revoked.record.id)).toBeNull();

    vi.setSystemTime(T0 + 60_000);
    const lines = captureConsole();
    await runJob();
    expect(await sealedOf(timedOut.record.id)).toBeNull();
    expect(lines.map((l) => JSON.parse(l.text))).toEqual([
      // The two rotated keys leave the due set: the job writes it without them.
      expect.objectContaining({ event: "key_copies", due_set_rewritten: true, sealed_secrets_erased: 1 }),
    ]);
  });
});

describe("a roll of a due key", () => {
  it("cancels the rotation: rolled, the new key without rotation, and no header on either", async () => {
    const k = await makeKey();
    await mark({ ids: [k.record.id] });
    const rolled = await call(`/admin/keys/${k.record.id}/roll`, { method: "POST", headers: ADMIN, body: {} });
    expect(rolled.body.data.rotation).toBeNull();
    expect((await adminKey(k.record.id)).rotation).toMatchObject({ state: "rolled", successor_id: null });
    expect(await env.KEYS.get("rotation:due", "json")).toEqual([]);
    clearIsolateCaches();
    for (const secret of [k.secret, rolled.body.data.secret]) {
      const res = await call("/api/area", { key: secret });
      expect([res.status, rotationHeader(res)]).toEqual([200, null]);
    }
  });
});

describe("the typed client's rotation helper", () => {
  it("rotates once when told, stores the successor before using it, and recovers a lost answer", async () => {
    const old = await makeKey({ name: "field app" });
    await mark({ ids: [old.record.id] });
    clearIsolateCaches();
    const stored: StoredKey[] = [];
    const sent: string[] = [];
    const reported: unknown[] = [];
    let loseNextRotate = true;
    const rotation = keyRotation(BASE, {
      secret: old.secret,
      store: async (key) => {
        stored.push(key);
      },
      onError: (error) => reported.push(error),
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        sent.push(
          `${request.method} ${new URL(request.url).pathname} ${request.headers.get("Authorization") === `Bearer ${old.secret}` ? "old" : "new"}`,
        );
        const res = await contractFetch(request);
        if (request.url.endsWith("/keys/rotate") && loseNextRotate) {
          loseNextRotate = false;
          throw new TypeError("network connection lost");
        }
        return res;
      },
    });
    for (let i = 0; i < 3; i++) expect((await rotation.fetch(`${BASE}/api/area`)).status).toBe(200);
    expect(sent).toEqual([
      "GET /api/area old",
      "POST /api/keys/rotate old",
      "GET /api/area old",
      "POST /api/keys/rotate old",
      "GET /api/area new",
    ]);
    expect(stored).toEqual([{ id: KEY_ID, secret: expect.stringMatching(/^sk_test_/), replaces: old.record.id }]);
    expect(rotation.secret).toBe(stored[0]!.secret);
    expect(await keyCount()).toBe(2);
    // The lost answer was reported, then cleared by the rotation that completed.
    expect(reported).toEqual([
      expect.objectContaining({
        name: "KeyRotationError",
        stage: "rotate",
        message: "POST /keys/rotate got no answer",
        status: null,
        cause: new TypeError("network connection lost"),
      }),
    ]);
    expect(rotation.lastError).toBeNull();
  });

  it("retries a store that fails, reports it, and stores the same successor at the next answer", async () => {
    const old = await makeKey({ name: "field app, full storage" });
    await mark({ ids: [old.record.id] });
    clearIsolateCaches();
    const sent: string[] = [];
    const tried: StoredKey[] = [];
    const reported: KeyRotationError[] = [];
    let failures = 3;
    const rotation = keyRotation(BASE, {
      secret: old.secret,
      store: async (key) => {
        tried.push(key);
        if (failures-- > 0) throw new Error("QuotaExceededError");
      },
      onError: (error) => reported.push(error),
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        const who = request.headers.get("Authorization") === `Bearer ${old.secret}` ? "old" : "new";
        sent.push(`${request.method} ${new URL(request.url).pathname} ${who}`);
        return contractFetch(request);
      },
    });
    // Three tries at the first answer, all failing: reported, and the old key stays in use.
    expect((await rotation.fetch(`${BASE}/api/area`)).status).toBe(200);
    expect(tried).toHaveLength(3);
    expect(new Set(tried.map((k) => k.secret)).size).toBe(1);
    expect(rotation.secret).toBe(old.secret);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({
      name: "KeyRotationError",
      stage: "store",
      cause: new Error("QuotaExceededError"),
    });
    expect(rotation.lastError).toBe(reported[0]);
    // The next answer (the old key still says due) stores the successor held, with no second rotate.
    expect((await rotation.fetch(`${BASE}/api/area`)).status).toBe(200);
    expect((await rotation.fetch(`${BASE}/api/area`)).status).toBe(200);
    expect(sent).toEqual(["GET /api/area old", "POST /api/keys/rotate old", "GET /api/area old", "GET /api/area new"]);
    expect(tried).toHaveLength(4);
    expect(tried[3]).toEqual(tried[0]);
    expect(rotation.secret).toBe(tried[0]!.secret);
    expect(rotation.lastError).toBeNull();
    expect(reported).toHaveLength(1);
    expect(await keyCount()).toBe(2);
  });
});

// Last in the file: its 500 key copies stay in KV until the next file starts.
describe("a fleet", () => {
  it(
    "reaches a fleet of 500 keys through one KV write, before any key's copy is rewritten",
    { timeout: 30_000 },
    async () => {
      const fleet = await makeFleet(500);
      const before = await Promise.all(fleet.slice(0, 20).map((k) => call("/api/area", { key: k.secret })));
      expect(before.map((res) => [res.status, rotationHeader(res)])).toEqual(before.map(() => [200, null]));

      const kvPuts = vi.spyOn(env.KEYS, "put");
      expect((await mark({ agent_id: 1 })).body).toEqual({ data: { requested: 500 } });
      // One write for the whole fleet: the due set.
      expect(kvPuts.mock.calls.map((c) => c[0])).toEqual(["rotation:due"]);
      kvPuts.mockRestore();

      // Every isolate's key cache expires within its time (a new isolate here); the copies still say nothing.
      clearIsolateCaches();
      // Twenty through call() (the contract), and all 500 straight into the worker: status and header.
      const checked = await Promise.all(fleet.slice(0, 20).map((k) => call("/api/area", { key: k.secret })));
      expect(checked.map((res) => [res.status, rotationHeader(res)])).toEqual(checked.map(() => [200, "due"]));
      clearIsolateCaches();
      const after = await Promise.all(
        fleet.map(async (k) => {
          const res = await exports.default.fetch(
            new Request(`${BASE}/api/area`, { headers: { Authorization: `Bearer ${k.secret}` } }),
          );
          await res.arrayBuffer();
          return [res.status, res.headers.get("Key-Rotation")];
        }),
      );
      expect(after).toEqual(fleet.map(() => [200, "due"]));
      const copies = await Promise.all(
        fleet.map((k) => env.KEYS.get<Record<string, unknown>>(`hash:${k.hash}`, "json")),
      );
      expect(copies.filter((copy) => copy!.rotation !== null)).toEqual([]);
    },
  );
});
