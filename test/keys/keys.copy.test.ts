// The copy follows the record (docs/specification.md section 2): the KV copy that authentication
// reads ends equal to the D1 record after any interleaving of a roll and a revoke of one key (driven
// through the admin API, one binding call at a time); a KV write that fails after D1 committed is
// no 503 but a change whose copy is pending, shown as such, and written by the 5-minute job.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index.ts";
import { clearIsolateKeyCache } from "../../src/keys/keys.copy.ts";
import type { KeyRecord } from "../../src/keys/keys.record.ts";
import type { KeyRow } from "../../src/keys/keys.queries.ts";
import { toRecord } from "../../src/keys/keys.record.ts";
import { COPY_WRITE_ROUNDS } from "../../src/keys/keys.store.ts";
import { DAILY_RETENTION_CRON, PENDING_COPIES_CRON } from "../../src/scheduled.ts";
import { callWithEnv, expectNoLeak, failingPutKV, withMembers } from "../helpers/faults.ts";
import { BASE, type CallResult, call, errorEnvelope } from "../helpers/http.ts";
import { forEveryInterleaving } from "../helpers/interleave.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { captureConsole } from "../helpers/logs.ts";

const ADMIN = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const GRACE = 3600;

interface StoredRow {
  record: KeyRecord;
  version: number;
  copy_pending: number;
}

async function stored(id: string): Promise<StoredRow> {
  const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?1")
    .bind(id)
    .first<KeyRow & { version: number; copy_pending: number }>();
  if (!row) throw new Error(`no api_keys row ${id}`);
  return { record: toRecord(row), version: row.version, copy_pending: row.copy_pending };
}

async function copyOf(record: KeyRecord): Promise<unknown> {
  return env.KEYS.get(`hash:${record.hash}`, "json");
}

/** What GET /api/area answers a key with this record, by the rules of section 2 (no data loaded: an empty list). */
function answerFor(record: KeyRecord): { status: number; body: unknown } {
  const now = new Date().toISOString();
  const refused = (description: string) => ({
    status: 401,
    body: errorEnvelope(401, "AUTHENTICATION_ERROR", description, "/api/area"),
  });
  if (record.revoked_at && record.revoked_at <= now) return refused("Invalid API key: the key has been revoked");
  if (record.expires_at && record.expires_at <= now) {
    return refused(
      record.replaced_by
        ? "Invalid API key: the key was rolled and its grace period has ended; use its replacement"
        : "Invalid API key: the key has expired",
    );
  }
  return { status: 200, body: { data: [] } };
}

/** The key answers as its D1 record says, seen from a fresh isolate (nothing cached). */
async function expectAuthenticatesAsRecorded(secret: string, id: string): Promise<void> {
  clearIsolateKeyCache();
  const res = await call("/api/area", { key: secret });
  expect({ id, status: res.status, body: res.body }).toEqual({ id, ...answerFor((await stored(id)).record) });
}

/** The 5-minute job's rotation part, with no rotation to look after (test/keys/keys.rotation.test.ts). */
const NO_ROTATION_UPKEEP = { due_set_rewritten: false, sealed_secrets_erased: 0 };

/** A key as the admin API shows it: the record without its hash, with status and copy_pending. */
function shown(record: KeyRecord, status: string, copyPending: boolean) {
  const {
    hash: _hash,
    successor_first_used_at: _first,
    awaits_first_use: _awaits,
    lineage_id: _lineage,
    ...rest
  } = record;
  return { ...rest, status, copy_pending: copyPending };
}

async function runJob(cron: string, bindings: Partial<Cloudflare.Env> = {}): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron }), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
}

async function auditCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM key_audit").first<{ n: number }>())!.n;
}

beforeEach(async () => {
  clearIsolateKeyCache();
  await env.DB.prepare("DELETE FROM admin_signin_failures").run();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a roll and a revoke of one key, interleaved every way", () => {
  it("leave the copy equal to the record: each key authenticates exactly as D1 says", async () => {
    const outcomes = new Set<string>();
    let rewrittenAfterAChange = 0;
    const count = await forEveryInterleaving(
      () => makeKey({ name: "raced" }),
      (key): { name: string; run: (b: { DB: D1Database; KEYS: KVNamespace }) => Promise<CallResult> }[] => [
        {
          name: "roll",
          run: (bindings) =>
            callWithEnv(bindings, `/admin/keys/${key.record.id}/roll`, {
              method: "POST",
              headers: ADMIN,
              body: { grace: GRACE },
            }),
        },
        {
          name: "revoke",
          run: (bindings) =>
            callWithEnv(bindings, `/admin/keys/${key.record.id}/revoke`, { method: "POST", headers: ADMIN }),
        },
      ],
      async (key, { results: [roll, revoke], steps }) => {
        const old = await stored(key.record.id);
        // The revoke always stands, and answers the record as D1 has it, its copy confirmed.
        expect({ status: revoke!.status, body: revoke!.body }).toEqual({
          status: 200,
          body: { data: shown(old.record, "revoked", false) },
        });
        expect(old.record.revoked_at).toEqual(ISO);
        const rows = [old];
        if (roll!.status === 201) {
          const next = await stored(roll!.body.data.id);
          const { secret, ...data } = roll!.body.data;
          expect(data).toEqual(shown(next.record, "active", false));
          expect(old.record).toMatchObject({ replaced_by: next.record.id, revoked_at: ISO });
          rows.push(next);
          await expectAuthenticatesAsRecorded(secret, next.record.id);
        } else {
          const path = `/admin/keys/${key.record.id}/roll`;
          expect({ status: roll!.status, body: roll!.body }).toEqual({
            status: 409,
            body: errorEnvelope(
              409,
              "CONFLICT",
              `Key ${key.record.id} is revoked: only an active key can be rolled`,
              path,
            ),
          });
        }
        for (const row of rows) {
          expect({ id: row.record.id, copy: await copyOf(row.record), copy_pending: row.copy_pending }).toEqual({
            id: row.record.id,
            copy: row.record,
            copy_pending: 0,
          });
        }
        await expectAuthenticatesAsRecorded(key.secret, key.record.id);
        outcomes.add(`roll ${roll!.status}`);
        // The roll wrote the old key's copy twice: its first write (from its batch) was overtaken by the revoke.
        const oldPuts = steps.filter((s) => s === `roll: put hash:${key.record.hash.slice(0, 7)}`).length;
        if (oldPuts > 1) rewrittenAfterAChange++;
      },
    );
    // Both outcomes of the race, and the write made again after a change, were among the interleavings.
    expect({ outcomes: [...outcomes].sort(), rewrittenAfterAChange: rewrittenAfterAChange > 0 }).toEqual({
      outcomes: ["roll 201", "roll 409"],
      rewrittenAfterAChange: true,
    });
    expect(count).toBeGreaterThan(50);
  }, 300_000);
});

describe("a KV write that fails after D1 committed", () => {
  it("a revoke stands, says its copy is pending, and the 5-minute job writes the copy once KV takes it", async () => {
    const { record, secret } = await makeKey({ name: "lost phone" });
    const kv = failingPutKV();
    const lines = captureConsole();
    const res = await callWithEnv({ KEYS: kv }, `/admin/keys/${record.id}/revoke`, { method: "POST", headers: ADMIN });
    expectNoLeak(res.text);
    const after = await stored(record.id);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { data: shown(after.record, "revoked", true) },
    });
    expect(after).toEqual({ record: { ...record, revoked_at: ISO }, version: 2, copy_pending: 1 });
    expect(kv.refused).toBe(1);
    expect(lines.filter((l) => l.text.includes("key_copy_pending")).map((l) => [l.method, JSON.parse(l.text)])).toEqual(
      [
        [
          "warn",
          {
            level: "warn",
            event: "key_copy_pending",
            key_id: record.id,
            reason: "kv_write_failed",
            error: "Error",
            marked: true,
          },
        ],
      ],
    );
    // D1 and KV disagree, and the mark says so: the copy still lets the key in.
    expect(await copyOf(record)).toEqual(record);
    clearIsolateKeyCache();
    expect((await call("/api/area", { key: secret })).status).toBe(200);
    const listed = (await call("/admin/keys", { headers: ADMIN })).body.data.find(
      (k: { id: string }) => k.id === record.id,
    );
    expect({ status: listed.status, copy_pending: listed.copy_pending }).toEqual({
      status: "revoked",
      copy_pending: true,
    });

    // The daily job does not touch copies; the 5-minute job leaves the mark while KV still refuses.
    await runJob(DAILY_RETENTION_CRON);
    expect((await stored(record.id)).copy_pending).toBe(1);
    lines.length = 0;
    await runJob(PENDING_COPIES_CRON, { KEYS: kv });
    expect(kv.refused).toBe(2);
    expect((await stored(record.id)).copy_pending).toBe(1);
    expect(lines.map((l) => [l.method, JSON.parse(l.text).event, JSON.parse(l.text).copies_still_pending])).toEqual([
      ["warn", "key_copy_pending", undefined],
      ["warn", "key_copies", 1],
    ]);
    clearIsolateKeyCache();
    expect((await call("/api/area", { key: secret })).status).toBe(200);

    // KV takes the write: the copy is the record, the mark is cleared, the key is refused.
    lines.length = 0;
    await runJob(PENDING_COPIES_CRON);
    const healed = await stored(record.id);
    expect(healed.copy_pending).toBe(0);
    expect(await copyOf(record)).toEqual(healed.record);
    expect(lines.map((l) => [l.method, JSON.parse(l.text)])).toEqual([
      [
        "log",
        {
          level: "info",
          event: "key_copies",
          cron: PENDING_COPIES_CRON,
          copies_rewritten: 1,
          copies_still_pending: 0,
          ...NO_ROTATION_UPKEEP,
        },
      ],
    ]);
    await expectAuthenticatesAsRecorded(secret, record.id);
    expect(answerFor(healed.record).status).toBe(401);
    // Nothing is left for the next run.
    lines.length = 0;
    await runJob(PENDING_COPIES_CRON);
    expect(JSON.parse(lines[0]!.text)).toMatchObject({ copies_rewritten: 0, copies_still_pending: 0 });
  });

  it("revoking a revoked key keeps its time, writes no audit entry, and writes its copy again", async () => {
    const { record, secret } = await makeKey({ name: "twice" });
    const kv = failingPutKV();
    captureConsole();
    const first = await callWithEnv({ KEYS: kv }, `/admin/keys/${record.id}/revoke`, {
      method: "POST",
      headers: ADMIN,
    });
    expect(first.body.data.copy_pending).toBe(true);
    const entries = await auditCount();
    const again = await call(`/admin/keys/${record.id}/revoke`, { method: "POST", headers: ADMIN });
    const after = await stored(record.id);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 200,
      body: { data: { ...first.body.data, copy_pending: false } },
    });
    expect(after.record.revoked_at).toBe(first.body.data.revoked_at);
    expect([after.copy_pending, await auditCount()]).toEqual([0, entries]);
    expect(await copyOf(record)).toEqual(after.record);
    await expectAuthenticatesAsRecorded(secret, record.id);
  });

  it("a create and a roll still answer their secret, say pending, and work once the job wrote the copies", async () => {
    const kv = failingPutKV();
    captureConsole();
    const made = await callWithEnv({ KEYS: kv }, "/admin/keys", {
      method: "POST",
      headers: ADMIN,
      body: { name: "new phone", mode: "test" },
    });
    const created = await stored(made.body.data.id);
    expect({ status: made.status, body: made.body }).toEqual({
      status: 201,
      body: {
        data: { ...shown(created.record, "active", true), secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/) },
      },
    });
    expect(created.copy_pending).toBe(1);
    // No copy yet: the key is unknown to authentication until the job writes it.
    clearIsolateKeyCache();
    const unknown = await call("/api/area", { key: made.body.data.secret });
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 401,
      body: errorEnvelope(401, "AUTHENTICATION_ERROR", "Invalid API key: no such key", "/api/area"),
    });

    const old = await makeKey({ name: "rolled at once" });
    const rolled = await callWithEnv({ KEYS: kv }, `/admin/keys/${old.record.id}/roll`, {
      method: "POST",
      headers: ADMIN,
      body: { grace: 0 },
    });
    const next = await stored(rolled.body.data.id);
    const oldAfter = await stored(old.record.id);
    expect({ status: rolled.status, body: rolled.body }).toEqual({
      status: 201,
      body: { data: { ...shown(next.record, "active", true), secret: expect.stringMatching(/^sk_test_/) } },
    });
    expect([next.copy_pending, oldAfter.copy_pending, oldAfter.record.replaced_by]).toEqual([1, 1, next.record.id]);
    // The old key's copy still says active: it works until the job writes the roll's copies.
    clearIsolateKeyCache();
    expect((await call("/api/area", { key: old.secret })).status).toBe(200);
    expect(kv.refused).toBe(3);

    await runJob(PENDING_COPIES_CRON);
    for (const [secret, id] of [
      [made.body.data.secret, created.record.id],
      [rolled.body.data.secret, next.record.id],
      [old.secret, old.record.id],
    ] as const) {
      const row = await stored(id);
      expect({ id, copy_pending: row.copy_pending, copy: await copyOf(row.record) }).toEqual({
        id,
        copy_pending: 0,
        copy: row.record,
      });
      await expectAuthenticatesAsRecorded(secret, id);
    }
    expect([answerFor((await stored(old.record.id)).record).status, answerFor(next.record).status]).toEqual([401, 200]);
  });

  it("a run of the job stops at the first write that KV refuses, and a later run writes every pending copy", async () => {
    const kv = failingPutKV();
    const lines = captureConsole();
    const made: { id: string; secret: string }[] = [];
    for (const name of ["a", "b", "c"]) {
      const res = await callWithEnv({ KEYS: kv }, "/admin/keys", {
        method: "POST",
        headers: ADMIN,
        body: { name, mode: "test" },
      });
      expect(res.body.data.copy_pending).toBe(true);
      made.push(res.body.data);
    }
    lines.length = 0;
    await runJob(PENDING_COPIES_CRON, { KEYS: kv });
    expect(kv.refused).toBe(4);
    expect(lines.filter((l) => l.text.includes('"key_copies"')).map((l) => JSON.parse(l.text))).toEqual([
      {
        level: "warn",
        event: "key_copies",
        cron: PENDING_COPIES_CRON,
        copies_rewritten: 0,
        copies_still_pending: 1,
        ...NO_ROTATION_UPKEEP,
      },
    ]);
    expect(await Promise.all(made.map(async (k) => (await stored(k.id)).copy_pending))).toEqual([1, 1, 1]);
    lines.length = 0;
    await runJob(PENDING_COPIES_CRON);
    expect(lines.map((l) => JSON.parse(l.text))).toEqual([
      {
        level: "info",
        event: "key_copies",
        cron: PENDING_COPIES_CRON,
        copies_rewritten: 3,
        copies_still_pending: 0,
        ...NO_ROTATION_UPKEEP,
      },
    ]);
    for (const k of made) await expectAuthenticatesAsRecorded(k.secret, k.id);
  });

  it("a record that keeps changing under the writer is left pending after its rounds, and the job writes it", async () => {
    const { record, secret } = await makeKey({ name: "busy" });
    // Another writer's change lands after each of this writer's KV writes.
    let puts = 0;
    const changing = withMembers(env.KEYS, {
      put: async (...args: Parameters<KVNamespace["put"]>) => {
        await env.KEYS.put(...args);
        puts++;
        await env.DB.prepare("UPDATE api_keys SET version = version + 1, copy_pending = 1 WHERE id = ?1")
          .bind(record.id)
          .run();
      },
    });
    const lines = captureConsole();
    const res = await callWithEnv({ KEYS: changing }, `/admin/keys/${record.id}/revoke`, {
      method: "POST",
      headers: ADMIN,
    });
    expect({ status: res.status, copy_pending: res.body.data.copy_pending }).toEqual({
      status: 200,
      copy_pending: true,
    });
    expect(puts).toBe(COPY_WRITE_ROUNDS);
    expect(lines.filter((l) => l.text.includes("key_copy_pending")).map((l) => JSON.parse(l.text).reason)).toEqual([
      "record_kept_changing",
    ]);
    expect((await stored(record.id)).copy_pending).toBe(1);
    await runJob(PENDING_COPIES_CRON);
    const after = await stored(record.id);
    expect({ copy_pending: after.copy_pending, copy: await copyOf(record) }).toEqual({
      copy_pending: 0,
      copy: after.record,
    });
    await expectAuthenticatesAsRecorded(secret, record.id);
  });

  it("a confirmation that D1 refuses leaves the copy pending; the job confirms it", async () => {
    const { record, secret } = await makeKey({ name: "unconfirmed" });
    const refusing = withMembers(env.DB, {
      batch: (statements: D1PreparedStatement[]) =>
        statements.some((s) => /copy_pending = 0/.test((s as unknown as { statement: string }).statement))
          ? Promise.reject(new Error("D1_ERROR: Network connection lost."))
          : env.DB.batch(statements),
    });
    const lines = captureConsole();
    const res = await callWithEnv({ DB: refusing }, `/admin/keys/${record.id}/revoke`, {
      method: "POST",
      headers: ADMIN,
    });
    expectNoLeak(res.text);
    expect({ status: res.status, copy_pending: res.body.data.copy_pending }).toEqual({
      status: 200,
      copy_pending: true,
    });
    expect(lines.filter((l) => l.text.includes("key_copy_pending")).map((l) => JSON.parse(l.text).reason)).toEqual([
      "confirm_failed",
    ]);
    // The copy was written (the key is refused already); only its confirmation is missing.
    await expectAuthenticatesAsRecorded(secret, record.id);
    expect((await stored(record.id)).copy_pending).toBe(1);
    await runJob(PENDING_COPIES_CRON);
    expect((await stored(record.id)).copy_pending).toBe(0);
  });

  it("a cron that no job answers to fails the run and says so", async () => {
    const lines = captureConsole();
    await expect(runJob("0 * * * *")).rejects.toThrow('no job for the cron "0 * * * *"');
    expect(lines.map((l) => [l.method, JSON.parse(l.text)])).toEqual([
      ["error", { level: "error", event: "scheduled_failed", cron: "0 * * * *", error: "Error" }],
    ]);
  });
});

describe("the dashboard and a pending copy", () => {
  const FORM = "application/x-www-form-urlencoded";
  /** A form POST; its answer as sent (a redirect is not followed). */
  const form = (fields: Record<string, string>, cookie?: string) => ({
    method: "POST",
    headers: { "Content-Type": FORM, Origin: BASE, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual" as const,
  });

  async function login(): Promise<string> {
    const res = await call("/dashboard/login", form({ token: env.ADMIN_TOKEN! }));
    const cookies = (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie();
    return cookies[0]!.split(";")[0]!;
  }

  /** The key list as a GET of `path` shows it (e.g. a revoke's 303 target), with the page's tokens. */
  async function page(cookie: string, path = "/dashboard"): Promise<{ text: string; csrf: string; once: string }> {
    const res = await call(path, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    return {
      text: res.text,
      csrf: /name="csrf_token" value="([^"]+)"/.exec(res.text)![1]!,
      once: /name="form_token" value="([^"]+)"/.exec(res.text)![1]!,
    };
  }

  /** The <tr> of a key in the page's table. */
  function rowOf(text: string, record: KeyRecord): string {
    const rows = text.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
    const row = rows.find((r) => r.includes(`<span class="hint">${record.id}</span>`));
    if (!row) throw new Error(`no row for ${record.id}`);
    return row;
  }

  /** A revoke's answer: a 303 to the key list, which shows the revoke's notice. */
  async function revokedPage(res: CallResult, cookie: string): Promise<string> {
    expect(res.status).toBe(303);
    return (await page(cookie, res.headers.get("Location")!)).text;
  }

  const PENDING_BADGE =
    '<span class="status status-pending">copy pending</span><span class="hint detail">authentication may not see this yet; written again within 5 minutes</span>';
  const NOTICE =
    '<p class="notice" role="status">The change is saved, but the copy that authentication reads could not be written yet: until it is, ' +
    "authentication may still treat the key as it did before the change. It is written again within 5 minutes (in production, plus up to " +
    "60 seconds of KV&#39;s propagation); revoking a key writes its copy again at once.</p>";
  const revokeButton = (record: KeyRecord) =>
    `Revoke<span class="vh"> key ${record.name} (${record.prefix})</span></button>`;

  it("shows the key as pending with a notice, offers Revoke while it may still authenticate, and a second revoke writes the copy", async () => {
    const { record, secret } = await makeKey({ name: "Van 7" });
    const settled = await makeKey({ name: "Van 8" });
    await call(`/admin/keys/${settled.record.id}/revoke`, { method: "POST", headers: ADMIN });
    const cookie = await login();
    const { csrf } = await page(cookie);
    captureConsole();
    const kv = failingPutKV();
    const revoked = await callWithEnv(
      { KEYS: kv },
      `/dashboard/keys/${record.id}/revoke`,
      form({ csrf_token: csrf }, cookie),
    );
    expect(await revokedPage(revoked, cookie)).toContain(NOTICE);

    const { text } = await page(cookie);
    const row = rowOf(text, record);
    expect(row).toContain(`<span class="status status-revoked">revoked</span>`);
    expect(row).toContain(PENDING_BADGE);
    expect(row).toContain(revokeButton(record));
    // A revoked key whose copy is written offers nothing.
    expect(rowOf(text, settled.record)).not.toContain("copy pending");
    expect(rowOf(text, settled.record)).not.toContain(revokeButton(settled.record));
    const entries = await auditCount();
    const revokedAt = (await stored(record.id)).record.revoked_at;

    const again = await call(`/dashboard/keys/${record.id}/revoke`, form({ csrf_token: csrf }, cookie));
    expect(await revokedPage(again, cookie)).toContain(
      `<p class="notice" role="status">Key “Van 7” (${record.prefix}) is revoked. It stops working everywhere within 10 seconds locally and about 100 seconds in production.</p>`,
    );
    const after = await stored(record.id);
    expect([after.record.revoked_at, after.copy_pending, await auditCount()]).toEqual([revokedAt, 0, entries]);
    const later = rowOf((await page(cookie)).text, record);
    expect(later).not.toContain("copy pending");
    expect(later).not.toContain(revokeButton(record));
    await expectAuthenticatesAsRecorded(secret, record.id);
  });

  it("offers Revoke on a key rolled away whose copy is pending, and shows the roll's notice with the secret", async () => {
    const old = await makeKey({ name: "Counter" });
    const cookie = await login();
    const { csrf, once } = await page(cookie);
    captureConsole();
    const kv = failingPutKV();
    const rolled = await callWithEnv(
      { KEYS: kv },
      `/dashboard/keys/${old.record.id}/roll`,
      form({ csrf_token: csrf, form_token: once, grace: "0" }, cookie),
    );
    // The one answer that shows the new secret: the POST's own.
    expect(rolled.status).toBe(200);
    const answer = rolled.text;
    expect(answer).toContain(NOTICE);
    expect(answer).toMatch(/<input id="new-secret" type="text" readonly="" value="sk_test_[0-9A-Za-z]{43}"/);
    const row = rowOf((await page(cookie)).text, old.record);
    expect(row).toContain('<span class="status status-expired">expired</span>');
    expect(row).toContain(PENDING_BADGE);
    expect(row).toContain(revokeButton(old.record));
    // Its copy still lets it in: revoking is what stops it now.
    clearIsolateKeyCache();
    expect((await call("/api/area", { key: old.secret })).status).toBe(200);
  });
});
