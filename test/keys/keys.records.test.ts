// Key records through HTTP (the admin API) with D1 as their system of record and KV as the copy
// that authentication reads: simultaneous rolls, the expiry a roll keeps, keys from the KV-only
// layout, and revocation reaching authentication.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hashSecret } from "../../src/keys/keys.secret.ts";
import { clearIsolateKeyCache } from "../../src/keys/keys.copy.ts";
import type { KeyRecord, RotationFields } from "../../src/keys/keys.record.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import { ApiError } from "../../src/platform/errors.ts";
import { call, errorEnvelope } from "../helpers/http.ts";
import { expectedActiveKey } from "../fixtures/expected-key.ts";

const ADMIN = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const path = "/admin/keys";

/**
 * A test-mode key whose record was written before scopes and agents existed (it has neither member),
 * its KV copy stored under its hash. Its secret is the letter, repeated.
 */
async function storePreScopesKey(letter: string, id: string, name: string) {
  const secret = `sk_test_${letter.repeat(43)}`;
  const record: Omit<KeyRecord, "scopes" | "agent_id" | "lineage_id" | RotationFields> = {
    id,
    name,
    prefix: `sk_test_${letter.repeat(4)}…`,
    mode: "test",
    hash: await hashSecret(secret),
    created_at: "2026-01-01T00:00:00.000Z",
    expires_at: null,
    revoked_at: null,
    replaces: null,
    replaced_by: null,
  };
  await env.KEYS.put(`hash:${record.hash}`, JSON.stringify(record));
  return { secret, record };
}

async function createKey(body: Record<string, unknown>) {
  const res = await call(path, { method: "POST", headers: ADMIN, body });
  expect(res.status).toBe(201);
  return res.body.data as KeyRecord & { secret: string; status: string };
}

async function rows() {
  return (
    await env.DB.prepare("SELECT id, rolled_from, replaced_by, expires_at FROM api_keys ORDER BY created_at, id").all()
  ).results;
}

beforeEach(async () => {
  clearIsolateKeyCache();
  await env.DB.batch([env.DB.prepare("DELETE FROM api_keys"), env.DB.prepare("DELETE FROM key_audit")]);
  const { keys } = await env.KEYS.list();
  await Promise.all(keys.map((k) => env.KEYS.delete(k.name)));
});

afterEach(() => {
  vi.useRealTimers();
});

describe("rolling through the admin API", () => {
  it("two simultaneous rolls of one key: exactly one 201, the other a 409 naming the winner", async () => {
    const key = await createKey({ name: "POS", mode: "test" });
    const rollPath = `${path}/${key.id}/roll`;
    const answers = await Promise.all([
      call(rollPath, { method: "POST", headers: ADMIN, body: { grace: 60 } }),
      call(rollPath, { method: "POST", headers: ADMIN, body: { grace: 60 } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const won = answers.find((a) => a.status === 201)!;
    const lost = answers.find((a) => a.status === 409)!;
    expect(lost.body).toEqual(
      errorEnvelope(
        409,
        "CONFLICT",
        `Key ${key.id} is already rolled (its replacement is ${won.body.data.id}): only an active key can be rolled`,
        rollPath,
      ),
    );
    // One new key in the record, and the old one replaced by it alone.
    const listed = (await call(path, { headers: ADMIN })).body.data as {
      id: string;
      replaces: string | null;
      replaced_by: string | null;
    }[];
    expect(listed.map((k) => [k.id, k.replaces, k.replaced_by]).sort()).toEqual(
      [
        [key.id, null, won.body.data.id],
        [won.body.data.id, key.id, null],
      ].sort(),
    );
    expect((await call("/api/area", { key: won.body.data.secret })).status).toBe(200);
  });

  it("keeps the old key's expiry: the replacement never outlives it", async () => {
    const key = await createKey({ name: "Temp", mode: "test", expires_in: 3600 });
    const rolled = await call(`${path}/${key.id}/roll`, { method: "POST", headers: ADMIN, body: { grace: 60 } });
    expect(rolled.status).toBe(201);
    expect(rolled.body.data).toEqual(
      expectedActiveKey({
        id: expect.stringMatching(/^key_[0-9A-Za-z]{16}$/),
        name: "Temp",
        mode: "test",
        prefix: `${rolled.body.data.secret.slice(0, 12)}…`,
        created_at: expect.any(String),
        expires_at: key.expires_at,
        replaces: key.id,
        secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/),
      }),
    );
    // The KV copy that authentication reads carries the same expiry.
    const copy = await env.KEYS.get<KeyRecord>(`hash:${await hashSecret(rolled.body.data.secret)}`, "json");
    expect(copy?.expires_at).toBe(key.expires_at);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(key.expires_at!));
    clearIsolateKeyCache();
    const expired = await call("/api/area", { key: rolled.body.data.secret });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(
      errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid API key: the key has expired", "/api/area"),
    );
  });
});

describe("keys from the KV-only layout", () => {
  it("keep authenticating, are carried over into D1 by the migration step, and are managed from then on", async () => {
    const { secret, record } = await storePreScopesKey("K", "key_LegacyLegacy0001", "made before D1");
    await env.KEYS.put(`id:${record.id}`, record.hash, { metadata: record });

    expect((await call("/api/area", { key: secret })).status).toBe(200);
    // No request carries them over: the step that `npm run db:migrate`, `npm start` and `npm run deploy` run does.
    expect((await call(path, { headers: ADMIN })).body).toEqual({ data: [] });
    expect(await new KeyStore(env.KEYS, env.DB).carryOverLegacyKeys()).toBe(1);
    expect(await new KeyStore(env.KEYS, env.DB).carryOverLegacyKeys()).toBe(0);
    const listed = await call(path, { headers: ADMIN });
    expect(listed.status).toBe(200);
    const { hash: _hash, ...shown } = record;
    // The listing carries usage too (test/admin/admin.usage-audit.test.ts); the request above may or may not be counted yet.
    const usage = {
      last_used_at: expect.toSatisfy((v: unknown) => v === null || typeof v === "string"),
      requests_24h: expect.any(Number),
      requests_7d: expect.any(Number),
      requests_daily: expect.any(Array),
    };
    expect(listed.body).toEqual({
      data: [
        {
          ...shown,
          scopes: ["read", "write"],
          agent_id: null,
          rotation: null,
          status: "active",
          copy_pending: false,
          ...usage,
        },
      ],
    });
    expect(await rows()).toEqual([{ id: record.id, rolled_from: null, replaced_by: null, expires_at: null }]);
    expect((await env.KEYS.list({ prefix: "id:" })).keys).toEqual([]);
    // Still authenticating after the carry-over (a fresh isolate reads the same KV entry).
    clearIsolateKeyCache();
    expect((await call("/api/area", { key: secret })).status).toBe(200);

    const revoked = await call(`${path}/${record.id}/revoke`, { method: "POST", headers: ADMIN });
    expect(revoked.status).toBe(200);
    const refused = await call("/api/area", { key: secret });
    expect(refused.body).toEqual(
      errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid API key: the key has been revoked", "/api/area"),
    );
  });
});

describe("revocation", () => {
  it("reaches authentication through the KV copy within the isolate's 10 s", async () => {
    const key = await createKey({ name: "Ops", mode: "test" });
    expect((await call("/api/area", { key: key.secret })).status).toBe(200);
    // Another process (the command line) revokes: D1, then the KV copy; this isolate still trusts what it read.
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2")
      .bind(new Date().toISOString(), key.id)
      .run();
    const copy = await env.KEYS.get<KeyRecord>(`hash:${await hashSecret(key.secret)}`, "json");
    await env.KEYS.put(`hash:${copy!.hash}`, JSON.stringify({ ...copy, revoked_at: new Date().toISOString() }));
    expect((await call("/api/area", { key: key.secret })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10_000);
    expect((await call("/api/area", { key: key.secret })).status).toBe(401);
  });
});

describe("scopes and a sales agent on a key", () => {
  const store = () => new KeyStore(env.KEYS, env.DB);
  const CLI = { actor: "cli" } as const;

  async function addAgent(id: number) {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO sales_agents (id, first_name, last_name, mobile_number) VALUES (?1, 'Asha', 'Rao', '9876543210')",
    )
      .bind(id)
      .run();
  }

  async function d1Key(id: string) {
    return env.DB.prepare("SELECT scopes, agent_id, expires_at FROM api_keys WHERE id = ?1").bind(id).first();
  }

  it("are kept in D1 and in the KV copy that authentication reads, scopes normalized to read,write", async () => {
    await addAgent(7);
    const { record, secret } = await store().create(
      { name: "field app", mode: "test", scopes: ["write", "read", "write"], agentId: 7 },
      CLI,
    );
    expect([record.scopes, record.agent_id]).toEqual([["read", "write"], 7]);
    expect(await d1Key(record.id)).toEqual({ scopes: "read,write", agent_id: 7, expires_at: null });
    const copy = await env.KEYS.get<KeyRecord>(`hash:${await hashSecret(secret)}`, "json");
    expect([copy?.scopes, copy?.agent_id]).toEqual([["read", "write"], 7]);
    clearIsolateKeyCache();
    expect(await store().findBySecret(secret)).toEqual(record);

    const reader = await store().create({ name: "reader", mode: "test", scopes: ["read"] }, CLI);
    expect(await d1Key(reader.record.id)).toEqual({ scopes: "read", agent_id: null, expires_at: null });
    expect((await store().findBySecret(reader.secret))?.scopes).toEqual(["read"]);
  });

  it("refuses an unknown or empty scopes list and an agent that does not exist, writing nothing", async () => {
    await addAgent(7);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ scopes: [] }, "scopes", "must name at least one scope: read, write"],
      [{ scopes: ["read", "admin"] }, "scopes", "has 'admin' that is not a scope: use read, write"],
      [{ scopes: 7 }, "scopes", "must be a list of scopes: read, write"],
      [{ scopes: " , " }, "scopes", "must name at least one scope: read, write"],
      [{ agentId: 999 }, "agent_id", "must be an existing sales agent's id: there is no sales agent 999"],
      [{ agentId: 0 }, "agent_id", "must be a sales agent's id: a whole number from 1"],
      [{ agentId: 1.5 }, "agent_id", "must be a sales agent's id: a whole number from 1"],
    ];
    for (const [extra, field, message] of cases) {
      const err = await store()
        .create({ name: "x", mode: "test", ...extra } as Parameters<KeyStore["create"]>[0], CLI)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect({ extra, isApiError: err instanceof ApiError }).toEqual({ extra, isApiError: true });
      expect({ status: (err as ApiError).status, fields: (err as ApiError).options.fields }).toEqual({
        status: 422,
        fields: [{ field, message }],
      });
    }
    expect((await env.DB.prepare("SELECT count(*) AS n FROM api_keys").first())?.n).toBe(0);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM key_audit").first())?.n).toBe(0);
    expect((await env.KEYS.list({ prefix: "hash:" })).keys).toEqual([]);
  });

  it("a KV copy written before scopes and agents reads as both scopes and no agent, and keeps working", async () => {
    const { secret, record: old } = await storePreScopesKey("Q", "key_OldShapeOldShape", "before scopes");
    expect(await store().findBySecret(secret)).toEqual({
      ...old,
      scopes: ["read", "write"],
      agent_id: null,
      rotation: null,
      successor_first_used_at: null,
      awaits_first_use: false,
      lineage_id: old.id,
    });
    expect((await call("/api/area", { key: secret })).status).toBe(200);
    expect((await call("/api/customers?count=1", { key: secret })).status).toBe(200);
  });

  it("rolling keeps name, mode, scopes, agent and expiry (in D1 and the KV copy)", async () => {
    await addAgent(8);
    const old = await store().create(
      { name: "van 8", mode: "test", scopes: ["read"], agentId: 8, expiresInSeconds: 7200 },
      CLI,
    );
    const rolled = await store().roll(old.record.id, 60, CLI);
    expect(rolled!.record).toMatchObject({
      name: "van 8",
      mode: "test",
      scopes: ["read"],
      agent_id: 8,
      expires_at: old.record.expires_at,
      replaces: old.record.id,
    });
    expect(await d1Key(rolled!.record.id)).toEqual({ scopes: "read", agent_id: 8, expires_at: old.record.expires_at });
    const copy = await env.KEYS.get<KeyRecord>(`hash:${await hashSecret(rolled!.secret)}`, "json");
    expect(copy).toEqual(rolled!.record);
    // The old key's copy keeps its scopes and agent through its grace.
    const oldCopy = await env.KEYS.get<KeyRecord>(`hash:${old.record.hash}`, "json");
    expect([oldCopy?.scopes, oldCopy?.agent_id, oldCopy?.replaced_by]).toEqual([["read"], 8, rolled!.record.id]);
  });
});
