// The key audit log: one entry per create, roll and revoke, from each place that changes keys, in
// the same D1 batch as the change (a failed batch leaves neither), newest first, never a secret.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry, KeyActor } from "../../src/keys/keys.audit.ts";
import { clearIsolateKeyCache } from "../../src/keys/keys.copy.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import { ApiError } from "../../src/platform/errors.ts";
import { failingWriteBatchD1 } from "../helpers/faults.ts";
import { call } from "../helpers/http.ts";

const ADMIN = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const T0 = Date.parse("2026-05-01T10:00:00.000Z");

function storeAt(db: D1Database = env.DB) {
  const clock = { ms: T0 };
  return { store: new KeyStore(env.KEYS, db, () => new Date(clock.ms)), clock };
}

/** The entry of a change by `by` to the test-mode key named `name` (no enrollment code's). */
function keyEntry(
  at: string,
  action: AuditEntry["action"],
  keyId: string,
  newKeyId: string | null,
  name: string,
  by: KeyActor,
): AuditEntry {
  return {
    at,
    action,
    key_id: keyId,
    new_key_id: newKeyId,
    code_id: null,
    key_name: name,
    mode: "test",
    actor: by.actor,
    session_id: by.sessionId ?? null,
  };
}

async function count(table: "api_keys" | "key_audit"): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
}

beforeEach(async () => {
  clearIsolateKeyCache();
  await env.DB.batch([env.DB.prepare("DELETE FROM api_keys"), env.DB.prepare("DELETE FROM key_audit")]);
  const { keys } = await env.KEYS.list();
  await Promise.all(keys.map((k) => env.KEYS.delete(k.name)));
});

describe("the store writes an entry for every change, naming its actor", () => {
  it("create, roll and revoke from each actor; newest first; never a secret", async () => {
    const { store, clock } = storeAt();
    const actors: KeyActor[] = [
      { actor: "dashboard", sessionId: "S".repeat(32) },
      { actor: "admin-api" },
      { actor: "cli", sessionId: null },
      { actor: "start" },
    ];
    const expected: AuditEntry[] = [];
    const secrets: string[] = [];
    for (const actor of actors) {
      // The entry this actor's change at the clock's time writes; then the clock moves on a second.
      const entryFor = (action: AuditEntry["action"], keyId: string, newKeyId: string | null): AuditEntry => {
        const entry = keyEntry(new Date(clock.ms).toISOString(), action, keyId, newKeyId, `by ${actor.actor}`, actor);
        clock.ms += 1000;
        return entry;
      };
      const made = await store.create({ name: `by ${actor.actor}`, mode: "test" }, actor);
      expected.push(entryFor("create", made.record.id, null));
      const rolled = await store.roll(made.record.id, 60, actor);
      expected.push(entryFor("roll", made.record.id, rolled!.record.id));
      await store.revoke(rolled!.record.id, actor);
      expected.push(entryFor("revoke", rolled!.record.id, null));
      secrets.push(made.secret, rolled!.secret);
    }
    const entries = await store.audit();
    expect(entries).toEqual(expected.reverse());
    expect(await store.audit(2)).toEqual(expected.slice(0, 2));
    const text = JSON.stringify(await env.DB.prepare("SELECT * FROM key_audit").all());
    for (const secret of secrets) expect(text).not.toContain(secret.slice(8));
    expect(text).not.toMatch(/[0-9a-f]{64}/);
  });

  it("revoking a revoked key, or an unknown one, writes no entry", async () => {
    const { store, clock } = storeAt();
    const { record } = await store.create({ name: "once", mode: "live" }, { actor: "cli" });
    await store.revoke(record.id, { actor: "cli" });
    clock.ms += 5000;
    await store.revoke(record.id, { actor: "admin-api" });
    expect(await store.revoke("key_AAAAAAAAAAAAAAAA", { actor: "cli" })).toBeNull();
    expect((await store.audit()).map((e) => [e.action, e.actor])).toEqual([
      ["revoke", "cli"],
      ["create", "cli"],
    ]);
  });

  it("two simultaneous rolls: one new key and one roll entry", async () => {
    const { store } = storeAt();
    const { record } = await store.create({ name: "twice", mode: "test" }, { actor: "cli" });
    const outcomes = await Promise.allSettled([
      store.roll(record.id, 60, { actor: "cli" }),
      store.roll(record.id, 60, { actor: "admin-api" }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await count("api_keys")).toBe(2);
    expect((await store.audit()).map((e) => e.action)).toEqual(["roll", "create"]);
  });

  it("refuses a change without a known actor before writing anything", async () => {
    const { store } = storeAt();
    await expect(store.create({ name: "x", mode: "test" }, { actor: "nobody" } as unknown as KeyActor)).rejects.toThrow(
      TypeError,
    );
    expect([await count("api_keys"), await count("key_audit")]).toEqual([0, 0]);
  });

  it("a limit outside 1 to 10000 is a 422 on limit", async () => {
    const { store } = storeAt();
    for (const limit of [0, -1, 1.5, 10_001]) {
      const err = await store.audit(limit).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as ApiError).options.fields).toEqual([
        { field: "limit", message: "must be a whole number from 1 to 10000" },
      ]);
    }
  });
});

describe("a failed batch writes neither the change nor its entry", () => {
  it("create, roll and revoke", async () => {
    const good = storeAt().store;
    const faulty = failingWriteBatchD1();
    const { store } = storeAt(faulty);
    await expect(store.create({ name: "lost", mode: "test" }, { actor: "cli" })).rejects.toThrow();
    expect([await count("api_keys"), await count("key_audit")]).toEqual([0, 0]);
    expect((await env.KEYS.list({ prefix: "hash:" })).keys).toEqual([]);

    const { record } = await good.create({ name: "kept", mode: "test" }, { actor: "cli" });
    await expect(store.roll(record.id, 60, { actor: "cli" })).rejects.toThrow();
    await expect(store.revoke(record.id, { actor: "cli" })).rejects.toThrow();
    expect(faulty.writeBatchesFailed).toBe(3);
    expect(await good.get(record.id)).toEqual(record);
    expect([await count("api_keys"), await count("key_audit")]).toEqual([1, 1]);
    expect((await good.audit()).map((e) => e.action)).toEqual(["create"]);
  });
});

describe("the admin API's changes are entries of actor admin-api", () => {
  it("create, roll, revoke", async () => {
    const made = await call("/admin/keys", { method: "POST", headers: ADMIN, body: { name: "pos", mode: "test" } });
    const rolled = await call(`/admin/keys/${made.body.data.id}/roll`, {
      method: "POST",
      headers: ADMIN,
      body: { grace: 0 },
    });
    await call(`/admin/keys/${rolled.body.data.id}/revoke`, { method: "POST", headers: ADMIN });
    const entries = await storeAt().store.audit();
    const api: KeyActor = { actor: "admin-api" };
    expect(entries).toEqual([
      keyEntry(expect.any(String), "revoke", rolled.body.data.id, null, "pos", api),
      keyEntry(expect.any(String), "roll", made.body.data.id, rolled.body.data.id, "pos", api),
      keyEntry(made.body.data.created_at, "create", made.body.data.id, null, "pos", api),
    ]);
  });
});
