// Rotation from the dashboard's key list (docs/specification.md section 9), through HTTP into the worker:
// the selected keys, or every active key of a mode or an agent, marked due through one form that never
// repeats; each key's rotation shown; "Revoke both" for an old key used after its successor.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type CallResult, call, statusAndHeaders } from "../helpers/http.ts";
import { dashboardLogin, formPost, resetKeysAndAgents } from "../helpers/session.ts";
import { makeKey, markDue } from "../helpers/api-keys.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import type { KeyRecord } from "../../src/keys/keys.record.ts";

const ADMIN = env.ADMIN_TOKEN!;
const bearer = { Authorization: `Bearer ${ADMIN}` };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const ALREADY_SENT = "/dashboard?notice=already-sent";

type Session = Awaited<ReturnType<typeof dashboardLogin>>;

const login = dashboardLogin;
const send = (path: string, fields: [string, string][], session?: Session) => formPost(path, fields, session?.cookie);

/** A page of the list and the tokens its forms carry. */
async function page(session: Session, path = "/dashboard") {
  const res = await call(path, { headers: { Cookie: session.cookie } });
  expect(res.status).toBe(200);
  return {
    res,
    csrf: /name="csrf_token" value="([^"]+)"/.exec(res.text)![1]!,
    formToken: /name="form_token" value="([^"]+)"/.exec(res.text)![1]!,
  };
}

/** Sends the rotation form of a page() with its tokens, `back` and `fields`. */
const sendRotation = (
  from: { csrf: string; formToken: string },
  back: string,
  fields: [string, string][],
  session: Session,
) =>
  send(
    "/dashboard/keys/rotation",
    [["csrf_token", from.csrf], ["form_token", from.formToken], ["back", back], ...fields],
    session,
  );

const keys = async (): Promise<any[]> => (await call("/admin/keys", { headers: bearer })).body.data;
const audit = async (): Promise<any[]> => (await call("/admin/audit", { headers: bearer })).body.data;
const dueIds = async () =>
  (await keys())
    .filter((k) => k.rotation?.state === "due")
    .map((k) => k.id)
    .sort();

function alertOf(res: CallResult): string | undefined {
  return /<div class="alert" role="alert"><p>([^<]*)<\/p><\/div>/.exec(res.text)?.[1];
}

function noticeOf(res: CallResult): string | undefined {
  return /<p class="notice" role="status">([^<]*)<\/p>/.exec(res.text)?.[1];
}

/** The <tr> of the key list that shows this key id. */
function rowOf(res: CallResult, id: string): string {
  const body = /<table class="keys">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(res.text)?.[1] ?? "";
  return body.split("</tr>").find((r) => r.includes(`<span class="hint">${id}</span>`)) ?? "";
}

beforeEach(async () => {
  await resetKeysAndAgents([
    [1, "Asha", "Rao"],
    [2, "Vikram", "Shetty"],
  ]);
});

describe("asking for rotation from the key list", () => {
  it("marks exactly the selected keys, once: the same form sent again changes nothing", async () => {
    const made: KeyRecord[] = [];
    for (let i = 0; i < 5; i++) made.push((await makeKey({ name: `Phone ${i}` })).record);
    const session = await login();
    const { res: before, csrf, formToken } = await page(session, "/dashboard?mode=test");
    // Every active key whose rotation was never asked for can be ticked; the boxes belong to the form.
    for (const key of made) {
      expect(rowOf(before, key.id)).toContain(
        `<td><input type="checkbox" name="ids" value="${key.id}" form="rotation-form" ` +
          `aria-label="Select Phone ${made.indexOf(key)} (${key.prefix})"/></td>`,
      );
    }
    expect(before.text).toContain('<input type="hidden" name="back" value="/dashboard?mode=test"/>');
    const chosen = [made[1]!.id, made[3]!.id];
    const fields: [string, string][] = [
      ["csrf_token", csrf],
      ["form_token", formToken],
      ["back", "/dashboard?mode=test"],
      ...chosen.map((id): [string, string] => ["ids", id]),
      ["scope", "selected"],
    ];

    const res = await send("/dashboard/keys/rotation", fields, session);
    expect({ ...statusAndHeaders(res, "Location", "Cache-Control"), text: res.text }).toEqual({
      status: 303,
      Location: "/dashboard?mode=test&requested=2",
      "Cache-Control": "no-store",
      text: "",
    });
    expect(await dueIds()).toEqual([...chosen].sort());
    const marked = (await audit()).filter((e) => e.action === "rotation-requested");
    expect(marked.sort((a, b) => (a.key_id < b.key_id ? -1 : 1))).toEqual(
      [...chosen].sort().map((id) => ({
        at: ISO,
        action: "rotation-requested",
        key_id: id,
        new_key_id: null,
        code_id: null,
        key_name: made.find((k) => k.id === id)!.name,
        mode: "test",
        actor: "dashboard",
        session_id: session.id,
      })),
    );

    // Where it leads: the same list, saying so, with each marked key's new state and no box to tick.
    const after = (await page(session, "/dashboard?mode=test&requested=2")).res;
    expect(noticeOf(after)).toBe(
      "Rotation was requested for 2 keys. Each keeps working and carries Key-Rotation: due within 60 seconds, so that its app rotates it.",
    );
    expect(after.text).toContain(
      '<p class="counts" id="rotation-progress">Rotation: 2 due, 0 rotated, 0 rolled instead.</p>',
    );
    for (const id of chosen) {
      expect(rowOf(after, id)).toMatch(
        /<span class="status rotation-due">rotation due<\/span><span class="hint detail">asked <time datetime="[^"]+">/,
      );
      expect(rowOf(after, id)).not.toContain('type="checkbox"');
    }
    expect(rowOf(after, made[0]!.id)).not.toContain("rotation-due");

    // A reload of the POST (or Back and resubmit) sends the same token: nothing more is marked or logged.
    const again = await send("/dashboard/keys/rotation", fields, session);
    expect(statusAndHeaders(again, "Location")).toEqual({ status: 303, Location: ALREADY_SENT });
    expect((await audit()).filter((e) => e.action === "rotation-requested")).toHaveLength(2);
    expect(await dueIds()).toEqual([...chosen].sort());
  });

  it("marks every active key of the mode, or of the agent, that the list is filtered by", async () => {
    const live = await makeKey({ name: "Live till", mode: "live" });
    const liveRevoked = await makeKey({ name: "Old live till", mode: "live" });
    await call(`/admin/keys/${liveRevoked.record.id}/revoke`, { method: "POST", headers: bearer });
    const test = await makeKey({ name: "Test till", mode: "test" });
    const asha = await makeKey({ name: "Asha's phone", agentId: 1 });
    const vikram = await makeKey({ name: "Vikram's phone", agentId: 2 });
    const session = await login();

    const byMode = await page(session, "/dashboard?mode=live");
    expect(byMode.res.text).toContain(
      '<input type="hidden" name="mode" value="live"/><button type="submit" name="scope" value="mode" class="secondary" ' +
        'aria-describedby="rotation-hint">Request rotation of every active live-mode key</button>',
    );
    const res = await sendRotation(
      byMode,
      "/dashboard?mode=live",
      [
        ["mode", "live"],
        ["scope", "mode"],
      ],
      session,
    );
    expect(statusAndHeaders(res, "Location")).toEqual({ status: 303, Location: "/dashboard?mode=live&requested=1" });
    expect(await dueIds()).toEqual([live.record.id]);

    const byAgent = await page(session, "/dashboard?agent=1");
    expect(byAgent.res.text).toContain("Request rotation of every active key of Asha Rao (#1)</button>");
    // A box ticked elsewhere on the page does not join an agent's rotation.
    const res2 = await sendRotation(
      byAgent,
      "/dashboard?agent=1",
      [
        ["ids", test.record.id],
        ["agent_id", "1"],
        ["scope", "agent"],
      ],
      session,
    );
    expect(statusAndHeaders(res2, "Location")).toEqual({ status: 303, Location: "/dashboard?agent=1&requested=1" });
    expect(await dueIds()).toEqual([live.record.id, asha.record.id].sort());
    expect((await keys()).find((k) => k.id === vikram.record.id).rotation).toBeNull();
  });

  it("refuses an empty selection on the page, and never leads away from the dashboard", async () => {
    await makeKey({ name: "Till" });
    const session = await login();
    const first = await page(session);
    const empty = await sendRotation(first, "/dashboard", [["scope", "selected"]], session);
    expect(empty.status).toBe(422);
    expect(alertOf(empty)).toBe(
      "The rotation was not requested: ids must name at least one key: tick the keys to rotate.",
    );
    expect(await dueIds()).toEqual([]);

    const [key] = await keys();
    for (const back of [
      "https://evil.example/",
      "//evil.example/dashboard",
      "/dashboard/../admin",
      "/dashboard?x=<a>",
    ]) {
      const res = await sendRotation(
        await page(session),
        back,
        [
          ["ids", key.id],
          ["scope", "selected"],
        ],
        session,
      );
      expect(statusAndHeaders(res, "Location")).toEqual({
        status: 303,
        Location: `/dashboard?requested=${back === "https://evil.example/" ? 1 : 0}`,
      });
    }
  });

  it("is refused without the session's CSRF token, or with an out-of-date form token", async () => {
    const { record } = await makeKey({ name: "Till" });
    const session = await login();
    const { csrf } = await page(session);
    const base: [string, string][] = [
      ["ids", record.id],
      ["scope", "selected"],
    ];
    const forged = await send("/dashboard/keys/rotation", [["csrf_token", "A".repeat(43)], ...base], session);
    expect(forged.status).toBe(403);
    const stale = await send(
      "/dashboard/keys/rotation",
      [["csrf_token", csrf], ["form_token", "A".repeat(43)], ...base],
      session,
    );
    expect(stale.status).toBe(409);
    expect(alertOf(stale)).toMatch(/^The rotation was not requested: the form was out of date/);
    expect(await dueIds()).toEqual([]);
  });
});

describe("an old key used after its successor", () => {
  it("shows a warning with a button that revokes the whole lineage: every working key of it, once", async () => {
    const store = new KeyStore(env.KEYS, env.DB);
    const root = await makeKey({ name: "Asha's phone", agentId: 1 });
    // A chain: rolled (still in its grace), then the roll's key rotated by the app.
    const rolled = (await store.roll(root.record.id, 3600, { actor: "cli" }))!;
    const old = { record: rolled.record, secret: rolled.secret };
    await markDue(old.record.id);
    const rotated = await call("/keys/rotate", { method: "POST", key: old.secret });
    expect(rotated.status).toBe(201);
    const successor = rotated.body.data;
    const bystander = await makeKey({ name: "Asha's other phone", agentId: 1 });
    // What the usage flush counts (test/keys cover the counting): here, three late uses.
    await env.DB.prepare("UPDATE api_keys SET old_key_uses_after_successor = 3 WHERE id = ?1")
      .bind(old.record.id)
      .run();
    const session = await login();
    const { res, csrf } = await page(session);
    const row = rowOf(res, old.record.id);
    expect(row).toContain(
      '<span class="status status-grace">expiring</span><span class="hint detail">rotated; works until <time datetime=',
    );
    expect(row).toMatch(
      new RegExp(
        '<span class="status rotation-rotated">rotated</span><span class="hint detail"><time datetime="[^"]+">[^<]+</time>, ' +
          `successor ${successor.id}</span>`,
      ),
    );
    expect(row).toContain(
      '<div class="late" role="note"><strong>Warning:</strong> used 3 times after its successor: it may have been copied.' +
        `<form method="post" action="/dashboard/keys/${old.record.id}/revoke-lineage">`,
    );
    expect(row).toContain(
      `Revoke its whole lineage<span class="vh"> of Asha&#39;s phone (${old.record.prefix}): every working key made from it or before it</span></button>`,
    );

    const path = `/dashboard/keys/${old.record.id}/revoke-lineage`;
    const revoked = await send(path, [["csrf_token", csrf]], session);
    expect(statusAndHeaders(revoked, "Location")).toEqual({
      status: 303,
      Location: `/dashboard?revoked_lineage=${old.record.id}&n=3`,
    });
    const chain = [root.record.id, old.record.id, successor.id];
    const states = async () =>
      (await keys()).filter((k) => chain.includes(k.id)).map((k) => [k.id, k.status, k.revoked_at]);
    const after = await states();
    expect(after.sort()).toEqual(chain.map((id) => [id, "revoked", ISO]).sort());
    for (const secret of [root.secret, old.secret, successor.secret]) {
      expect((await call("/api/customers", { key: secret })).status).toBe(401);
    }
    // Another key of the same agent is another lineage: untouched.
    expect((await call("/api/customers", { key: bystander.secret })).status).toBe(200);
    const shown = (await page(session, `/dashboard?revoked_lineage=${old.record.id}&n=3`)).res;
    expect(noticeOf(shown)).toBe(
      `Every key of the lineage of “Asha&#39;s phone” (${old.record.prefix}) is revoked (3 keys were still working): ` +
        "the key, the keys it was made from and those made from it by rotation or roll. " +
        "They stop working everywhere within 10 seconds locally and about 100 seconds in production.",
    );
    const revokes = () => audit().then((entries) => entries.filter((e) => e.action === "revoke"));
    expect((await revokes()).map((e) => [e.key_id, e.actor, e.session_id]).at(-1)).toEqual([
      old.record.id,
      "dashboard",
      session.id,
    ]);
    expect((await revokes()).map((e) => e.key_id).sort()).toEqual([...chain].sort());

    // Sent again (a reload of the POST): a 303, the first revocation times kept, nothing logged.
    const again = await send(path, [["csrf_token", csrf]], session);
    expect(statusAndHeaders(again, "Location")).toEqual({
      status: 303,
      Location: `/dashboard?revoked_lineage=${old.record.id}&n=0`,
    });
    expect((await states()).sort()).toEqual(after.sort());
    expect(await revokes()).toHaveLength(3);
  });
});
