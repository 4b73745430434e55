// The key store on the real local D1 and KV of this test file (no mocks): the D1 record and its KV
// copy, rules, rolling, revoking, and records carried over from the KV-only layout.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { KEY_DEFAULTS } from "../../test/fixtures/expected-key.ts";
import { alteredSecret } from "../../test/helpers/api-keys.ts";
import { ApiError } from "../platform/errors.ts";
import {
  cachedKey,
  clearIsolateKeyCache,
  ISOLATE_KEY_CACHE_SIZE,
  ISOLATE_KEY_TTL_MS,
  rememberKey,
  UNKNOWN_KEY_CACHE_SIZE,
  UNKNOWN_KEY_TTL_MS,
} from "./keys.copy.ts";
import type { KeyRecord, RotationFields } from "./keys.record.ts";
import { KeyRecords } from "./keys.records.ts";
import { hashSecret } from "./keys.secret.ts";
import {
  DEFAULT_GRACE_SECONDS,
  KeyStore,
  publicRecord,
  REVOCATION_BOUND_LOCAL_SECONDS,
  REVOCATION_BOUND_PRODUCTION_SECONDS,
} from "./keys.store.ts";

const CLI = { actor: "cli" } as const;
const T0 = Date.parse("2026-05-01T10:00:00.000Z");

/** A store on a clock that the test moves. */
function storeAt(start = T0) {
  const clock = { ms: start };
  return { store: new KeyStore(env.KEYS, env.DB, () => new Date(clock.ms)), clock };
}

/** Everything in the key store namespace: names, values and metadata, as text. */
async function dumpKv(): Promise<string> {
  const { keys } = await env.KEYS.list();
  const parts = await Promise.all(
    keys.map(async (k) => `${k.name}\n${await env.KEYS.get(k.name)}\n${JSON.stringify(k.metadata)}`),
  );
  return parts.join("\n");
}

function apiError(fn: () => unknown): Promise<ApiError> {
  return Promise.resolve()
    .then(fn)
    .then(
      () => {
        throw new Error("expected an ApiError");
      },
      (err: unknown) => {
        if (!(err instanceof ApiError)) throw err;
        return err;
      },
    );
}

beforeEach(async () => {
  clearIsolateKeyCache();
  const { keys } = await env.KEYS.list();
  await Promise.all(keys.map((k) => env.KEYS.delete(k.name)));
  await env.DB.prepare("DELETE FROM api_keys").run();
});

/** The api_keys rows, as stored. */
async function d1Rows(): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare("SELECT * FROM api_keys ORDER BY created_at, id").all<Record<string, unknown>>())
    .results;
}

describe("create", () => {
  it("stores the record in D1 and its copy under the hash in KV, never the secret", async () => {
    const { store } = storeAt();
    const { record, secret } = await store.create(
      { name: "  warehouse app ", mode: "test", expiresInSeconds: 3600 },
      CLI,
    );
    const hash = await hashSecret(secret);
    expect(record).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{16}$/),
      name: "warehouse app",
      mode: "test",
      prefix: `${secret.slice(0, 12)}…`,
      hash,
      created_at: "2026-05-01T10:00:00.000Z",
      expires_at: "2026-05-01T11:00:00.000Z",
      ...KEY_DEFAULTS,
      successor_first_used_at: null,
      awaits_first_use: false,
      lineage_id: record.id,
    });
    expect(await d1Rows()).toEqual([
      {
        id: record.id,
        name: "warehouse app",
        mode: "test",
        prefix: record.prefix,
        hash,
        created_at: "2026-05-01T10:00:00.000Z",
        expires_at: "2026-05-01T11:00:00.000Z",
        revoked_at: null,
        rolled_from: null,
        replaced_by: null,
        scopes: "read,write",
        agent_id: null,
        last_used_at: null,
        version: 0,
        copy_pending: 0,
        rotation_state: null,
        rotation_requested_at: null,
        rotated_at: null,
        successor_first_used_at: null,
        old_key_uses_after_successor: 0,
        successor_secret_sealed: null,
        awaits_first_use: 0,
        lineage_id: record.id,
      },
    ]);
    expect((await env.KEYS.list()).keys.map((k) => k.name)).toEqual([`hash:${hash}`]);
    expect(await env.KEYS.get(`hash:${hash}`, "json")).toEqual(record);
    const stored = `${await dumpKv()}\n${JSON.stringify(await d1Rows())}`;
    expect(stored).toContain(hash);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(8));
  });

  it("refuses a bad name, mode or expiry with a 422 naming the field", async () => {
    const { store } = storeAt();
    const cases: [Parameters<KeyStore["create"]>[0], string, string][] = [
      [{ name: "", mode: "test" }, "name", "must not be empty"],
      [{ name: "  \t ", mode: "test" }, "name", "must not be empty"],
      [{ name: "x".repeat(101), mode: "test" }, "name", "must be at most 100 characters"],
      [{ name: "a\nb", mode: "test" }, "name", "must not contain control characters"],
      [{ name: undefined as unknown as string, mode: "test" }, "name", "is required"],
      [{ name: "n", mode: "prod" as "test" }, "mode", "must be one of test, live"],
      [
        { name: "n", mode: "test", expiresInSeconds: 0 },
        "expires_in",
        "must be a whole number of seconds from 1 to 315360000",
      ],
      [
        { name: "n", mode: "test", expiresInSeconds: -5 },
        "expires_in",
        "must be a whole number of seconds from 1 to 315360000",
      ],
      [
        { name: "n", mode: "test", expiresInSeconds: 1.5 },
        "expires_in",
        "must be a whole number of seconds from 1 to 315360000",
      ],
      [
        { name: "n", mode: "test", expiresInSeconds: 315_360_001 },
        "expires_in",
        "must be a whole number of seconds from 1 to 315360000",
      ],
    ];
    for (const [input, field, message] of cases) {
      const err = await apiError(() => store.create(input, CLI));
      expect({ status: err.status, fields: err.options.fields }).toEqual({ status: 422, fields: [{ field, message }] });
    }
    expect((await env.KEYS.list()).keys).toEqual([]);
    expect(await d1Rows()).toEqual([]);
    expect(
      (await store.create({ name: "x".repeat(100), mode: "live", expiresInSeconds: 315_360_000 }, CLI)).record.name,
    ).toHaveLength(100);
  });
});

describe("findBySecret", () => {
  it("finds by the secret's hash, and nothing for another secret", async () => {
    const { store } = storeAt();
    const { record, secret } = await store.create({ name: "a", mode: "test" }, CLI);
    expect(await store.findBySecret(secret)).toEqual(record);
    expect(await store.findBySecret(alteredSecret(secret))).toBeNull();
  });

  it("trusts what it read for the isolate TTL, then reads again", async () => {
    const { store, clock } = storeAt();
    const { record, secret } = await store.create({ name: "a", mode: "test" }, CLI);
    expect(await store.findBySecret(secret)).toEqual(record);
    // Another process (the command line) revokes: it writes KV, not this isolate's cache.
    const revoked = { ...record, revoked_at: new Date(clock.ms).toISOString() };
    await env.KEYS.put(`hash:${record.hash}`, JSON.stringify(revoked));
    clock.ms += ISOLATE_KEY_TTL_MS - 1;
    expect(await store.findBySecret(secret)).toEqual(record);
    clock.ms += 1;
    expect(await store.findBySecret(secret)).toEqual(revoked);
  });

  it("sees its own isolate's changes at once", async () => {
    const { store } = storeAt();
    const { record, secret } = await store.create({ name: "a", mode: "test" }, CLI);
    expect((await store.findBySecret(secret))?.revoked_at).toBeNull();
    await store.revoke(record.id, CLI);
    expect((await store.findBySecret(secret))?.revoked_at).toBe("2026-05-01T10:00:00.000Z");
  });
});

describe("isolate cache", () => {
  beforeEach(() => clearIsolateKeyCache());

  const recordNo = (i: number) => ({ hash: `k${i}` }) as KeyRecord;
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  /**
   * What the cache holds of the hashes a test remembered (the cache starts empty): found records
   * and "no such key" answers, counted through its answers. Reading marks an entry as used but
   * neither adds nor drops one, so the counts are the cache's sizes.
   */
  function held(hashes: readonly string[], nowMs: number): { known: number; unknown: number } {
    const answers = hashes.map((h) => cachedKey(h, nowMs));
    return { known: answers.filter((a) => a).length, unknown: answers.filter((a) => a === null).length };
  }

  it('keeps at most UNKNOWN_KEY_CACHE_SIZE "no such key" answers, for UNKNOWN_KEY_TTL_MS', () => {
    const hashes = names("h", UNKNOWN_KEY_CACHE_SIZE + 50);
    for (const h of hashes) rememberKey(h, null, T0);
    expect(held(hashes, T0)).toEqual({ known: 0, unknown: UNKNOWN_KEY_CACHE_SIZE });
    expect(cachedKey("h0", T0)).toBeUndefined();
    expect(cachedKey("h49", T0)).toBeUndefined();
    expect(cachedKey("h50", T0)).toBeNull();
    expect(cachedKey(`h${UNKNOWN_KEY_CACHE_SIZE + 49}`, T0)).toBeNull();
    expect(cachedKey("h51", T0 + UNKNOWN_KEY_TTL_MS - 1)).toBeNull();
    expect(cachedKey("h51", T0 + UNKNOWN_KEY_TTL_MS)).toBeUndefined();
    expect(UNKNOWN_KEY_TTL_MS).toBeLessThanOrEqual(ISOLATE_KEY_TTL_MS);
  });

  it("never lets unknown keys push a found key out", () => {
    rememberKey("real", recordNo(0), T0);
    const junk = names("junk", (ISOLATE_KEY_CACHE_SIZE + UNKNOWN_KEY_CACHE_SIZE) * 2);
    for (const h of junk) rememberKey(h, null, T0);
    expect(cachedKey("real", T0)).toEqual(recordNo(0));
    expect(held(["real", ...junk], T0)).toEqual({ known: 1, unknown: UNKNOWN_KEY_CACHE_SIZE });
  });

  it("drops the least recently used found key when full, and forgets each for ISOLATE_KEY_TTL_MS", () => {
    for (let i = 0; i < ISOLATE_KEY_CACHE_SIZE; i++) rememberKey(`k${i}`, recordNo(i), T0);
    // k0 is in steady use; k1 was read once, longest ago.
    expect(cachedKey("k0", T0 + 1)).toEqual(recordNo(0));
    rememberKey("new", recordNo(-1), T0 + 2);
    expect(held([...names("k", ISOLATE_KEY_CACHE_SIZE), "new"], T0 + 2)).toEqual({
      known: ISOLATE_KEY_CACHE_SIZE,
      unknown: 0,
    });
    expect(cachedKey("k1", T0 + 3)).toBeUndefined();
    expect(cachedKey("k0", T0 + 3)).toEqual(recordNo(0));
    expect(cachedKey("k2", T0 + 3)).toEqual(recordNo(2));
    // Being used does not extend a record's life: the revocation bound holds.
    expect(cachedKey("k0", T0 + ISOLATE_KEY_TTL_MS)).toBeUndefined();
  });

  it("keeps one answer per hash: the newest", () => {
    rememberKey("h", null, T0);
    rememberKey("h", recordNo(1), T0);
    expect(cachedKey("h", T0)).toEqual(recordNo(1));
    rememberKey("h", null, T0);
    expect(cachedKey("h", T0)).toBeNull();
    expect(held(["h"], T0)).toEqual({ known: 0, unknown: 1 });
  });
});

describe("get and list", () => {
  it("lists every key oldest first, from D1", async () => {
    const { store, clock } = storeAt();
    const a = await store.create({ name: "a", mode: "test" }, CLI);
    clock.ms += 1000;
    const b = await store.create({ name: "b", mode: "live" }, CLI);
    expect(await store.list()).toEqual([a.record, b.record]);
    expect(await store.get(b.record.id)).toEqual(b.record);
  });

  it("answers null for an unknown or impossible id", async () => {
    const { store } = storeAt();
    expect(await store.get("key_AAAAAAAAAAAAAAAA")).toBeNull();
    expect(await store.get(`key_${"A".repeat(600)}`)).toBeNull();
    expect(await store.get("../etc")).toBeNull();
    expect(await store.revoke("key_AAAAAAAAAAAAAAAA", CLI)).toBeNull();
    expect(await store.roll("nope", undefined, CLI)).toBeNull();
  });

  it("shows administrators everything but the hash and the rotation's request-path fields", async () => {
    const { store } = storeAt();
    const { record } = await store.create({ name: "a", mode: "test" }, CLI);
    const shown = publicRecord(record, store.stateOf(record));
    expect(shown).not.toHaveProperty("hash");
    expect(shown).toEqual({
      ...record,
      hash: undefined,
      successor_first_used_at: undefined,
      awaits_first_use: undefined,
      lineage_id: undefined,
      status: "active",
    });
  });
});

describe("roll", () => {
  it("makes a key of the same name and mode; the old one works for the grace, then expires", async () => {
    const { store, clock } = storeAt();
    const old = await store.create({ name: "pos", mode: "live" }, CLI);
    const rolled = await store.roll(old.record.id, 600, CLI);
    expect(rolled!.record).toMatchObject({
      name: "pos",
      mode: "live",
      replaces: old.record.id,
      replaced_by: null,
      expires_at: null,
    });
    expect(rolled!.secret).toMatch(/^sk_live_/);
    const after = await store.get(old.record.id);
    expect(after).toEqual({ ...old.record, replaced_by: rolled!.record.id, expires_at: "2026-05-01T10:10:00.000Z" });
    expect(await store.findBySecret(old.secret)).toEqual(after);
    expect(store.stateOf(after!)).toBe("grace");
    clock.ms += 600_000 - 1;
    expect(store.stateOf(after!)).toBe("grace");
    clock.ms += 1;
    expect(store.stateOf(after!)).toBe("expired");
  });

  it("defaults to a day of grace, 0 stops the old key at once, and never extends its own expiry", async () => {
    const { store } = storeAt();
    expect(DEFAULT_GRACE_SECONDS).toBe(86_400);
    const a = await store.create({ name: "a", mode: "test" }, CLI);
    await store.roll(a.record.id, undefined, CLI);
    expect((await store.get(a.record.id))?.expires_at).toBe("2026-05-02T10:00:00.000Z");

    const b = await store.create({ name: "b", mode: "test" }, CLI);
    await store.roll(b.record.id, 0, CLI);
    const bAfter = await store.get(b.record.id);
    expect(bAfter?.expires_at).toBe("2026-05-01T10:00:00.000Z");
    expect(store.stateOf(bAfter!)).toBe("expired");

    const c = await store.create({ name: "c", mode: "test", expiresInSeconds: 60 }, CLI);
    const cNext = await store.roll(c.record.id, 3600, CLI);
    expect((await store.get(c.record.id))?.expires_at).toBe("2026-05-01T10:01:00.000Z");
    // The replacement keeps the old key's expiry: rolling never makes a key outlive the one it replaces.
    expect(cNext!.record.expires_at).toBe("2026-05-01T10:01:00.000Z");
    expect(await store.get(cNext!.record.id)).toEqual(cNext!.record);
  });

  it("lets exactly one of two simultaneous rolls of a key commit", async () => {
    const { store } = storeAt();
    const { record } = await store.create({ name: "twice", mode: "test" }, CLI);
    const outcomes = await Promise.allSettled([store.roll(record.id, 60, CLI), store.roll(record.id, 60, CLI)]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect([won.length, lost.length]).toEqual([1, 1]);
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<KeyStore["roll"]>>>).value!;
    expect(lost[0]!.reason).toBeInstanceOf(ApiError);
    expect({ status: lost[0]!.reason.status, description: lost[0]!.reason.description }).toEqual({
      status: 409,
      description: `Key ${record.id} is already rolled (its replacement is ${winner.record.id}): only an active key can be rolled`,
    });
    expect((await store.list()).map((r) => [r.id, r.replaces, r.replaced_by])).toEqual(
      [
        [record.id, null, winner.record.id],
        [winner.record.id, record.id, null],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
  });

  it("refuses a key that is not active (409) and a bad grace (422)", async () => {
    const { store, clock } = storeAt();
    const rolled = await store.create({ name: "r", mode: "test" }, CLI);
    const next = await store.roll(rolled.record.id, 60, CLI);
    const revoked = await store.create({ name: "v", mode: "test" }, CLI);
    await store.revoke(revoked.record.id, CLI);
    const expired = await store.create({ name: "e", mode: "test", expiresInSeconds: 1 }, CLI);
    clock.ms += 1000;
    const expect409 = async (id: string, description: string) => {
      const err = await apiError(() => store.roll(id, undefined, CLI));
      expect({ status: err.status, description: err.description }).toEqual({ status: 409, description });
    };
    await expect409(
      rolled.record.id,
      `Key ${rolled.record.id} is already rolled (its replacement is ${next!.record.id}): only an active key can be rolled`,
    );
    await expect409(revoked.record.id, `Key ${revoked.record.id} is revoked: only an active key can be rolled`);
    await expect409(expired.record.id, `Key ${expired.record.id} is expired: only an active key can be rolled`);
    for (const grace of [-1, 0.5, 315_360_001]) {
      const err = await apiError(() => store.roll(next!.record.id, grace, CLI));
      expect(err.options.fields).toEqual([
        { field: "grace", message: "must be a whole number of seconds from 0 to 315360000" },
      ]);
    }
    expect((await store.list()).map((r) => r.name).sort()).toEqual(["e", "r", "r", "v"]);
  });
});

describe("revoke", () => {
  it("revokes at once and keeps the first time when repeated", async () => {
    const { store, clock } = storeAt();
    const { record } = await store.create({ name: "a", mode: "test" }, CLI);
    const revoked = { ...record, revoked_at: "2026-05-01T10:00:00.000Z" };
    expect(await store.revoke(record.id, CLI)).toEqual({ record: revoked, copyPending: false });
    expect(store.stateOf(revoked)).toBe("revoked");
    clock.ms += 5000;
    expect(await store.revoke(record.id, CLI)).toEqual({ record: revoked, copyPending: false });
    expect(await env.KEYS.get(`hash:${record.hash}`, "json")).toEqual(revoked);
  });

  it("heals a revocation whose KV copy was not written after D1 committed it", async () => {
    const { store } = storeAt();
    const { record } = await store.create({ name: "a", mode: "test" }, CLI);
    // D1 says revoked, the copy that authentication reads says active: what a failed KV write leaves.
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2")
      .bind("2026-05-01T09:59:00.000Z", record.id)
      .run();
    const revoked = { ...record, revoked_at: "2026-05-01T09:59:00.000Z" };
    expect(await store.revoke(record.id, CLI)).toEqual({ record: revoked, copyPending: false });
    expect(await env.KEYS.get(`hash:${record.hash}`, "json")).toEqual(revoked);
  });
});

describe("the pending mark of a copy", () => {
  it("is cleared only by the confirmation of the version that set it, never by an older writer's", async () => {
    const { store } = storeAt();
    const records = new KeyRecords(env.DB);
    const { record } = await store.create({ name: "a", mode: "test" }, CLI);
    expect(await records.confirm(record.id, 0)).toEqual({ record, version: 0, pending: false });
    const revoked = await records.revoke(record.id, "2026-05-01T10:00:00.000Z", { actor: "cli", sessionId: null });
    expect(revoked).toEqual({
      record: { ...record, revoked_at: "2026-05-01T10:00:00.000Z" },
      version: 1,
      pending: true,
    });
    // A writer that wrote the copy of version 0 (read before the revoke) leaves the revoke's mark.
    expect(await records.confirm(record.id, 0)).toEqual(revoked);
    await records.mark(record.id);
    expect(await records.confirm(record.id, 1)).toEqual({ ...revoked, version: 2 });
    expect(await records.confirm(record.id, 2)).toEqual({ ...revoked, version: 2, pending: false });
    expect(await records.pending("", 10)).toEqual([]);
  });

  it("is listed by the job's scan in id order, from an id on", async () => {
    const { store } = storeAt();
    const records = new KeyRecords(env.DB);
    const made = await Promise.all(["a", "b", "c"].map((name) => store.create({ name, mode: "test" }, CLI)));
    const ids = made.map((m) => m.record.id).sort();
    for (const id of ids) await records.mark(id);
    expect((await records.pending("", 2)).map((r) => [r.record.id, r.version, r.pending])).toEqual([
      [ids[0], 1, true],
      [ids[1], 1, true],
    ]);
    expect((await records.pending(ids[1]!, 2)).map((r) => r.record.id)).toEqual([ids[2]]);
    expect(await store.rewritePendingCopies()).toEqual({ copies_rewritten: 3, copies_still_pending: 0 });
    expect(await records.pending("", 10)).toEqual([]);
  });
});

describe("records made before D1 held keys (KV only)", () => {
  /**
   * A key as the KV-only store wrote it (before scopes and agents): the authentication entry and the
   * listing entry. `record` is what the store reads it as: both scopes, no agent.
   */
  async function legacyKey(name: string, extra: Partial<KeyRecord> = {}) {
    const secret = `sk_test_${"L".repeat(39)}${name.padStart(4, "0").slice(-4)}`;
    const stored: Omit<KeyRecord, "scopes" | "agent_id" | "lineage_id" | RotationFields> = {
      id: `key_LEGACY${name.padStart(10, "0").slice(-10)}`,
      name,
      mode: "test",
      prefix: `${secret.slice(0, 12)}…`,
      hash: await hashSecret(secret),
      created_at: "2026-04-01T00:00:00.000Z",
      expires_at: null,
      revoked_at: null,
      replaces: null,
      replaced_by: null,
      ...extra,
    };
    await env.KEYS.put(`hash:${stored.hash}`, JSON.stringify(stored));
    await env.KEYS.put(`id:${stored.id}`, stored.hash, { metadata: stored });
    const record: KeyRecord = {
      ...stored,
      scopes: ["read", "write"],
      agent_id: null,
      rotation: null,
      successor_first_used_at: null,
      awaits_first_use: false,
      lineage_id: stored.id,
    };
    return { record, secret };
  }

  it("authenticate as before, and are carried over into D1 by the migration step, none lost", async () => {
    const { store } = storeAt();
    const a = await legacyKey("one");
    const b = await legacyKey("two", { revoked_at: "2026-04-02T00:00:00.000Z" });
    expect(await store.findBySecret(a.secret)).toEqual(a.record);
    expect(await d1Rows()).toEqual([]);
    const fresh = await store.create({ name: "new", mode: "test" }, CLI);
    // Reads no longer carry them over: the step that `npm run db:migrate`, `npm start` and `npm run deploy` run does.
    expect(await store.list()).toEqual([fresh.record]);
    expect(await store.carryOverLegacyKeys()).toBe(2);
    expect(await store.list()).toEqual(
      [a.record, b.record, fresh.record].sort(
        (x, y) => x.created_at.localeCompare(y.created_at) || x.id.localeCompare(y.id),
      ),
    );
    expect((await d1Rows()).map((r) => r.id).sort()).toEqual([a.record.id, b.record.id, fresh.record.id].sort());
    // The listing entries are gone; the authentication entries stay, so the keys keep working.
    expect((await env.KEYS.list({ prefix: "id:" })).keys).toEqual([]);
    clearIsolateKeyCache();
    expect(await store.findBySecret(a.secret)).toEqual(a.record);
    // And they are managed like any other key from then on.
    const rolled = await store.roll(a.record.id, 0, CLI);
    expect(rolled!.record.replaces).toBe(a.record.id);
    expect(store.stateOf((await store.findBySecret(a.secret))!)).toBe("expired");
  });

  it("a second carry-over changes nothing", async () => {
    const { store } = storeAt();
    const a = await legacyKey("three");
    expect(await store.revoke(a.record.id, CLI)).toBeNull();
    expect(await store.carryOverLegacyKeys()).toBe(1);
    expect(await store.revoke(a.record.id, CLI)).toEqual({
      record: { ...a.record, revoked_at: "2026-05-01T10:00:00.000Z" },
      copyPending: false,
    });
    const again = await legacyKey("three"); // the same listing entry written again (an old worker still running)
    expect(await store.carryOverLegacyKeys()).toBe(1);
    expect(await store.get(again.record.id)).toEqual({ ...a.record, revoked_at: "2026-05-01T10:00:00.000Z" });
    expect(await d1Rows()).toHaveLength(1);
  });
});

describe("revocation bound", () => {
  it("is the isolate TTL locally and about 100 s in production", () => {
    expect(REVOCATION_BOUND_LOCAL_SECONDS).toBe(10);
    expect(REVOCATION_BOUND_PRODUCTION_SECONDS).toBe(100);
  });
});
