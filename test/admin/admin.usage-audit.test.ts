// The administrator's side of scopes, agent-bound keys, usage and the audit log, through HTTP into
// the worker: the JSON admin API's new fields, GET /admin/audit and GET /admin/salesagents, and the
// dashboard's make-key form (scopes, agent picker), key table (usage, chart) and audit panel.
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { usageRecorder } from "../../src/keys/keys.usage.ts";
import { BASE, type CallResult, call, errorEnvelope, validationEnvelope } from "../helpers/http.ts";
import { auditSessionId } from "../helpers/session.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { expectedActiveKey } from "../fixtures/expected-key.ts";

const ADMIN = env.ADMIN_TOKEN!;
const FORM = "application/x-www-form-urlencoded";
const bearer = { Authorization: `Bearer ${ADMIN}` };
const KEY_ID = expect.stringMatching(/^key_[0-9A-Za-z]{16}$/);
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const MINUTE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/;
const ASHA = { id: 1, first_name: "Asha", last_name: "Rao", mobile_number: "9876543210" };

/** A form POST; its answer as sent (a redirect is not followed). */
function form(fields: [string, string][], cookie: string) {
  return {
    method: "POST",
    headers: { "Content-Type": FORM, Origin: BASE, Cookie: cookie },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual" as const,
  };
}

/** Logs in through the form: the Cookie header value, the session's id and the tokens of the page it leads to. */
async function login(): Promise<{ cookie: string; sessionId: string; csrf: string; once: string }> {
  const res = await call("/dashboard/login", form([["token", ADMIN]], ""));
  expect(res.status).toBe(303);
  const setCookie = (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie()[0]!;
  const cookie = setCookie.split(";")[0]!;
  const sessionId = await auditSessionId(cookie);
  return { cookie, sessionId, ...tokensOf(await call("/dashboard", { headers: { Cookie: cookie } })) };
}

/** A page's CSRF token and its one-time form token (for the make-key and roll forms). */
function tokensOf(res: CallResult): { csrf: string; once: string } {
  return {
    csrf: /name="csrf_token" value="([^"]+)"/.exec(res.text)![1]!,
    once: /name="form_token" value="([^"]+)"/.exec(res.text)![1]!,
  };
}

/** The <tr> of the key table that shows this key id. */
function keyRowOf(res: CallResult, id: string): string {
  const rows = /<tbody>[\s\S]*?<\/tbody>/.exec(res.text)![0].split("<tr>");
  return rows.find((r) => r.includes(`<span class="hint">${id}</span>`)) ?? "";
}

function auditRowsOf(res: CallResult): string[] {
  const table = /<table class="audit">[\s\S]*?<\/table>/.exec(res.text)?.[0] ?? "";
  return (/<tbody>([\s\S]*)<\/tbody>/.exec(table)?.[1] ?? "").split("</tr>").filter((r) => r !== "");
}

/** Polls the admin API until the key's requests_24h is `n` (usage is written after the response). */
async function listedWithUsage(id: string, n: number): Promise<any> {
  const start = Date.now();
  for (;;) {
    const key = (await call("/admin/keys", { headers: bearer })).body.data.find((k: any) => k.id === id);
    if (key.requests_24h >= n || Date.now() - start > 5000) return key;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  await seedFixture();
});

beforeEach(async () => {
  usageRecorder.reset();
  clearIsolateCaches();
  await env.DB.batch([
    env.DB.prepare("DELETE FROM admin_signin_failures"),
    env.DB.prepare("DELETE FROM key_usage"),
    env.DB.prepare("DELETE FROM key_audit"),
    env.DB.prepare("DELETE FROM api_keys"),
  ]);
});

describe("the admin API: scopes and agents", () => {
  it("makes a key with scopes and an agent; roll, list and revoke carry them", async () => {
    const made = await call("/admin/keys", {
      method: "POST",
      headers: bearer,
      body: { name: "Field app", mode: "test", scopes: ["read"], agent_id: 1 },
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      data: expectedActiveKey({
        id: KEY_ID,
        name: "Field app",
        mode: "test",
        prefix: `${made.body.data.secret.slice(0, 12)}…`,
        created_at: ISO,
        expires_at: null,
        scopes: ["read"],
        agent_id: 1,
        secret: expect.stringMatching(/^sk_test_/),
      }),
    });
    const rolled = await call(`/admin/keys/${made.body.data.id}/roll`, {
      method: "POST",
      headers: bearer,
      body: { grace: 0 },
    });
    expect(rolled.body.data).toMatchObject({ scopes: ["read"], agent_id: 1, replaces: made.body.data.id });
    const revoked = await call(`/admin/keys/${rolled.body.data.id}/revoke`, { method: "POST", headers: bearer });
    expect(revoked.body.data).toMatchObject({ scopes: ["read"], agent_id: 1, status: "revoked" });
    const listed = (await call("/admin/keys", { headers: bearer })).body.data;
    expect(listed.map((k: any) => [k.scopes, k.agent_id])).toEqual([
      [["read"], 1],
      [["read"], 1],
    ]);
    const plain = await call("/admin/keys", {
      method: "POST",
      headers: bearer,
      body: { name: "Plain", mode: "test", agent_id: null },
    });
    expect(plain.body.data).toMatchObject({ scopes: ["read", "write"], agent_id: null });
  });

  it("answers 422 for an unknown scope or an unknown agent, making nothing", async () => {
    const path = "/admin/keys";
    const scope = await call(path, {
      method: "POST",
      headers: bearer,
      body: { name: "x", mode: "test", scopes: ["read", "admin"] },
    });
    expect(scope.status).toBe(422);
    expect(scope.body).toEqual(
      validationEnvelope(path, [{ field: "scopes", message: "has 'admin' that is not a scope: use read, write" }]),
    );
    const none = await call(path, {
      method: "POST",
      headers: bearer,
      body: { name: "x", mode: "test", scopes: [], agent_id: "1" },
    });
    expect(none.body).toEqual(
      validationEnvelope(path, [
        { field: "scopes", message: "must name at least one scope: read, write" },
        { field: "agent_id", message: "must be a sales agent's id: a whole number from 1" },
      ]),
    );
    const agent = await call(path, {
      method: "POST",
      headers: bearer,
      body: { name: "x", mode: "test", agent_id: 999 },
    });
    expect(agent.status).toBe(422);
    expect(agent.body).toEqual(
      validationEnvelope(path, [
        { field: "agent_id", message: "must be an existing sales agent's id: there is no sales agent 999" },
      ]),
    );
    expect((await call(path, { headers: bearer })).body).toEqual({ data: [] });
    expect((await call("/admin/audit", { headers: bearer })).body).toEqual({ data: [] });
  });
});

describe("the admin API: usage", () => {
  it("lists each key with last_used_at, requests_24h, requests_7d and requests_daily", async () => {
    const made = (await call("/admin/keys", { method: "POST", headers: bearer, body: { name: "Busy", mode: "test" } }))
      .body.data;
    const idle = (await call("/admin/keys", { method: "POST", headers: bearer, body: { name: "Idle", mode: "test" } }))
      .body.data;
    for (let i = 0; i < 3; i++) expect((await call("/api/area", { key: made.secret })).status).toBe(200);
    const busy = await listedWithUsage(made.id, 3);
    const { secret: _secret, ...record } = made;
    const days = busy.requests_daily as { date: string; requests: number }[];
    expect(busy).toEqual({
      ...record,
      last_used_at: expect.stringMatching(MINUTE),
      requests_24h: 3,
      requests_7d: 3,
      requests_daily: days,
    });
    expect(Date.now() - Date.parse(busy.last_used_at)).toBeLessThan(120_000);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ date: today(), requests: 3 });
    expect(days.slice(0, -1).every((d) => d.requests === 0)).toBe(true);
    expect(new Date(Date.parse(`${days[0]!.date}T00:00:00Z`) + 29 * 86_400_000).toISOString().slice(0, 10)).toBe(
      today(),
    );
    const { secret: _idleSecret, ...idleRecord } = idle;
    const listedIdle = (await call("/admin/keys", { headers: bearer })).body.data.find((k: any) => k.id === idle.id);
    expect(listedIdle).toEqual({
      ...idleRecord,
      last_used_at: null,
      requests_24h: 0,
      requests_7d: 0,
      requests_daily: days.map((d) => ({ date: d.date, requests: 0 })),
    });
  });
});

describe("GET /admin/audit", () => {
  it("gives the newest entries first, with actor admin-api and no session", async () => {
    const made = (
      await call("/admin/keys", {
        method: "POST",
        headers: bearer,
        body: { name: "Audited", mode: "live", scopes: ["write"] },
      })
    ).body.data;
    const rolled = (await call(`/admin/keys/${made.id}/roll`, { method: "POST", headers: bearer, body: { grace: 60 } }))
      .body.data;
    await call(`/admin/keys/${rolled.id}/revoke`, { method: "POST", headers: bearer });
    const res = await call("/admin/audit", { headers: bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const common = { code_id: null, key_name: "Audited", mode: "live", actor: "admin-api", session_id: null };
    expect(res.body).toEqual({
      data: [
        { at: ISO, action: "revoke", key_id: rolled.id, new_key_id: null, ...common },
        { at: ISO, action: "roll", key_id: made.id, new_key_id: rolled.id, ...common },
        { at: ISO, action: "create", key_id: made.id, new_key_id: null, ...common },
      ],
    });
    expect(res.text).not.toContain(made.secret);
    expect((await call("/admin/audit?limit=2", { headers: bearer })).body.data.map((e: any) => e.action)).toEqual([
      "revoke",
      "roll",
    ]);
  });

  it("returns 50 by default; 422 for a bad limit, 405 for another method, 401 without the token", async () => {
    for (let i = 0; i < 52; i++) await makeKey({ name: `k${i}` });
    const all = await call("/admin/audit", { headers: bearer });
    expect(all.body.data).toHaveLength(50);
    expect(all.body.data[0]).toMatchObject({ action: "create", key_name: "k51", actor: "cli" });
    for (const limit of ["0", "10001", "abc", "1.5", ""]) {
      const res = await call(`/admin/audit?limit=${limit}`, { headers: bearer });
      expect(res.body).toEqual(
        validationEnvelope("/admin/audit", [{ field: "limit", message: "must be a whole number from 1 to 10000" }]),
      );
    }
    const post = await call("/admin/audit", { method: "POST", headers: bearer });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD");
    expect(post.body).toEqual(
      errorEnvelope(405, "METHOD_NOT_ALLOWED", "POST is not allowed here; allowed: GET, HEAD", "/admin/audit"),
    );
    expect((await call("/admin/audit")).status).toBe(401);
  });
});

describe("GET /admin/salesagents", () => {
  it("finds agents by a part of the name or the mobile number", async () => {
    const by = async (q: string) =>
      (await call(`/admin/salesagents?q=${encodeURIComponent(q)}`, { headers: bearer })).body;
    expect(await by("asha")).toEqual({ data: [ASHA] });
    expect(await by("a R")).toEqual({ data: [ASHA] });
    expect(await by("43210")).toEqual({ data: [ASHA] });
    expect((await by("98765000")).data.map((a: any) => a.id)).toEqual([2, 3]);
    expect(await by("%")).toEqual({ data: [] });
    expect(await by("_")).toEqual({ data: [] });
    expect((await by("")).data.length).toBeGreaterThanOrEqual(3);
    const long = await call(`/admin/salesagents?q=${"x".repeat(101)}`, { headers: bearer });
    expect(long.body).toEqual(
      validationEnvelope("/admin/salesagents", [{ field: "q", message: "must be at most 100 characters" }]),
    );
  });

  it("finds an agent by the id that `--agent 7` takes, first, with or without #", async () => {
    const by = async (q: string) =>
      (await call(`/admin/salesagents?q=${encodeURIComponent(q)}`, { headers: bearer })).body.data.map(
        (a: any) => a.id,
      );
    expect(await by("#2")).toEqual([2]);
    // Agent 3 by its id, then the agents whose name or number holds a 3.
    expect((await by("3"))[0]).toBe(3);
    expect(await by("3")).toEqual([3, ...(await by("3")).slice(1).sort((a: number, b: number) => a - b)]);
    expect(await by("#999")).toEqual([]);
  });

  it("matches a search longer than production's 50-byte LIKE pattern by the whole text", async () => {
    const first = "Venkatanarasimharajuvaripeta";
    const last = "Subramaniam Lakshminarayanan";
    await env.DB.prepare(
      "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES (77, ?1, ?2, '9000000077')",
    )
      .bind(first, last)
      .run();
    const by = async (q: string) =>
      (await call(`/admin/salesagents?q=${encodeURIComponent(q)}`, { headers: bearer })).body.data.map(
        (a: any) => a.id,
      );
    const whole = `${first} ${last}`; // 57 characters: the pattern holds 48 of them
    expect(await by(whole.toLowerCase())).toEqual([77]);
    // The first 48 characters match, the rest does not: not found.
    expect(await by(`${whole.slice(0, 50)}XXXXXXX`)).toEqual([]);
    expect(await by("%".repeat(100))).toEqual([]);
  });

  it("gives at most 20, answers 405 for another method and 401 without the token", async () => {
    const rows = Array.from({ length: 25 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES (?1, 'Many', ?2, ?3)",
      ).bind(1000 + i, `Agent${i}`, `70000${String(i).padStart(5, "0")}`),
    );
    await env.DB.batch(rows);
    const res = await call("/admin/salesagents?q=many", { headers: bearer });
    expect(res.body.data.map((a: any) => a.id)).toEqual(Array.from({ length: 20 }, (_, i) => 1000 + i));
    const del = await call("/admin/salesagents", { method: "DELETE", headers: bearer });
    expect(del.status).toBe(405);
    expect(del.headers.get("Allow")).toBe("GET, HEAD");
    expect((await call("/admin/salesagents")).status).toBe(401);
  });
});

describe("the dashboard: make-key form, key table and audit panel", () => {
  it("offers both scopes ticked, and agents found by name or mobile as radio buttons", async () => {
    const { cookie } = await login();
    const page = await call("/dashboard", { headers: { Cookie: cookie } });
    expect(page.text).toContain(
      '<fieldset><legend>Scopes</legend><div class="choices">' +
        '<label class="choice"><input type="checkbox" name="scopes" value="read" checked=""/> read: every GET endpoint</label>' +
        '<label class="choice"><input type="checkbox" name="scopes" value="write" checked=""/> write: create customers</label></div></fieldset>',
    );
    expect(page.text).toContain('<label for="agent-q">Find a sales agent to bind the key to</label>');
    expect(page.text).toContain(
      '<input type="radio" name="agent_id" value="" checked="" aria-describedby="agent-hint"/> no agent',
    );
    expect(page.text).not.toContain('name="agent_id" value="1"');

    const found = await call("/dashboard?agent_q=9876543", { headers: { Cookie: cookie } });
    expect(found.status).toBe(200);
    expect(found.text).toContain('value="9876543"');
    expect(found.text).toContain('<p class="hint" id="agent-hint">1 match for “9876543”.</p>');
    expect(found.text).toContain(
      '<input type="radio" name="agent_id" value="1" autofocus=""/> Asha Rao (9876543210), #1</label>',
    );
    const none = await call("/dashboard?agent_q=nobody", { headers: { Cookie: cookie } });
    expect(none.text).toContain("No sales agent matches “nobody”.");
    const all = await call("/dashboard?agent_q=", { headers: { Cookie: cookie } });
    expect(all.text).toMatch(/<p class="hint" id="agent-hint">(The first 20|\d+) sales agents, by id\.<\/p>/);
    const long = await call(`/dashboard?agent_q=${"x".repeat(101)}`, { headers: { Cookie: cookie } });
    expect(long.status).toBe(422);
    expect(long.text).toContain("The agents were not searched: q must be at most 100 characters.");
    // Without a session the search shows the login page only.
    const anonymous = await call("/dashboard?agent_q=asha");
    expect(anonymous.text).toContain("<h1>API key dashboard</h1>");
    expect(anonymous.text).not.toContain("Asha");
  });

  it("searches agents from inside the make-key form, by id too, keeping what was typed; then makes the key", async () => {
    const { cookie, csrf, once } = await login();
    const typed: [string, string][] = [
      ["csrf_token", csrf],
      ["form_token", once],
      ["name", "Van 3"],
      ["mode", "test"],
      ["expires_in", "86400"],
      ["scopes", "read"],
      ["agent_id", ""],
    ];
    const found = await call("/dashboard/keys/agents", form([...typed, ["agent_q", "#3"]], cookie));
    expect(found.status).toBe(200);
    expect(found.text).toContain(
      '<input id="key-name" name="name" type="text" required="" maxlength="100" autocomplete="off" value="Van 3"/>',
    );
    expect(found.text).toContain('<option value="86400" selected="">in 24 hours</option>');
    expect(found.text).toContain('<input type="checkbox" name="scopes" value="write"/>');
    expect(found.text).toContain('<p class="hint" id="agent-hint">1 match for “#3”.</p>');
    expect(found.text).toContain(
      '<input type="radio" name="agent_id" value="3" autofocus=""/> Meena Iyer (9876500003), #3</label>',
    );
    // Nothing was made, and the form's one-time token still makes the key.
    expect((await call("/admin/keys", { headers: bearer })).body.data).toEqual([]);
    const made = await call(
      "/dashboard/keys",
      form([...typed.filter(([k]) => k !== "agent_id"), ["agent_id", "3"]], cookie),
    );
    expect(made.status).toBe(200);
    expect((await call("/admin/keys", { headers: bearer })).body.data[0]).toMatchObject({ name: "Van 3", agent_id: 3 });
    // Without the CSRF token the search is refused like any form.
    const forged = await call("/dashboard/keys/agents", form([["agent_q", "3"]], cookie));
    expect(forged.status).toBe(403);
  });

  it("makes, rolls and revokes a key: scopes and agent in the table, audit entries with the session's id", async () => {
    const { cookie, sessionId, csrf, once } = await login();
    const made = await call(
      "/dashboard/keys",
      form(
        [
          ["csrf_token", csrf],
          ["form_token", once],
          ["name", "Asha's app"],
          ["mode", "test"],
          ["expires_in", ""],
          ["scopes", "read"],
          ["agent_id", "1"],
        ],
        cookie,
      ),
    );
    expect(made.status).toBe(200);
    const key = (await call("/admin/keys", { headers: bearer })).body.data[0];
    expect(key).toMatchObject({ name: "Asha's app", scopes: ["read"], agent_id: 1 });
    expect(keyRowOf(made, key.id)).toContain(
      `<td data-label="Agent">Asha Rao<br/><span class="hint">#1</span></td><td data-label="Mode and scopes">test<br/><span class="scopes">read</span></td>`,
    );
    const rolled = await call(
      `/dashboard/keys/${key.id}/roll`,
      form(
        [
          ["csrf_token", csrf],
          ["form_token", once],
          ["grace", "0"],
        ],
        cookie,
      ),
    );
    expect(rolled.status).toBe(200);
    const fresh = (await call("/admin/keys", { headers: bearer })).body.data.find((k: any) => k.replaces === key.id);
    expect(fresh).toMatchObject({ scopes: ["read"], agent_id: 1 });
    const revoke = await call(`/dashboard/keys/${fresh.id}/revoke`, form([["csrf_token", csrf]], cookie));
    expect(revoke.status).toBe(303);
    const revoked = await call(revoke.headers.get("Location")!, { headers: { Cookie: cookie } });

    const common = { code_id: null, key_name: "Asha's app", mode: "test", actor: "dashboard", session_id: sessionId };
    expect((await call("/admin/audit", { headers: bearer })).body.data).toEqual([
      { at: ISO, action: "revoke", key_id: fresh.id, new_key_id: null, ...common },
      { at: ISO, action: "roll", key_id: key.id, new_key_id: fresh.id, ...common },
      { at: ISO, action: "create", key_id: key.id, new_key_id: null, ...common },
    ]);
    const rows = auditRowsOf(revoked);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      new RegExp(
        `^<tr><td data-label="At"><time datetime="[^"]+">[^<]+ UTC</time></td><td data-label="Action">revoke</td><td data-label="Key"><code>${fresh.id}</code></td><td data-label="New key">–</td><td data-label="Enrollment code">–</td>` +
          `<td data-label="Name">Asha&#39;s app</td><td data-label="Mode">test</td><td data-label="Actor">dashboard</td><td data-label="Session"><code>${sessionId.slice(0, 8)}…</code></td>$`,
      ),
    );
    expect(rows[1]).toContain(
      `<td data-label="Action">roll</td><td data-label="Key"><code>${key.id}</code></td><td data-label="New key"><code>${fresh.id}</code></td>`,
    );
    expect(revoked.text).not.toContain(sessionId);
  });

  it("keeps the form's scopes and agent when it is refused: no scope ticked is an error", async () => {
    const { cookie, csrf, once } = await login();
    const res = await call(
      "/dashboard/keys",
      form(
        [
          ["csrf_token", csrf],
          ["form_token", once],
          ["name", "No scopes"],
          ["mode", "test"],
          ["agent_id", "2"],
        ],
        cookie,
      ),
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain("The key was not made: scopes must name at least one scope: read, write.");
    expect(res.text).toContain('<input type="checkbox" name="scopes" value="read"/>');
    expect(res.text).toContain(
      '<input type="radio" name="agent_id" value="2" checked=""/> Vikram Shetty (9876500002), #2',
    );
    const unknown = await call(
      "/dashboard/keys",
      form(
        [
          ["csrf_token", csrf],
          ["form_token", tokensOf(res).once],
          ["name", "Ghost"],
          ["mode", "test"],
          ["scopes", "read"],
          ["scopes", "write"],
          ["agent_id", "999"],
        ],
        cookie,
      ),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain(
      "The key was not made: agent_id must be an existing sales agent&#39;s id: there is no sales agent 999.",
    );
    expect((await call("/admin/keys", { headers: bearer })).body).toEqual({ data: [] });
  });

  it("shows each key's last use, requests in 24 h and 7 days and a per-day chart with its figures", async () => {
    const { record, secret } = await makeKey({ name: "Charted", agentId: 3 });
    for (let i = 0; i < 4; i++) expect((await call("/api/area", { key: secret })).status).toBe(200);
    const listed = await listedWithUsage(record.id, 4);
    const { cookie } = await login();
    const row = keyRowOf(await call("/dashboard", { headers: { Cookie: cookie } }), record.id);
    expect(row).toContain(
      `<td data-label="Agent">Meena Iyer<br/><span class="hint">#3</span></td><td data-label="Mode and scopes">test<br/><span class="scopes">read, write</span></td>`,
    );
    expect(row).toContain(`<td data-label="Last used"><time datetime="${listed.last_used_at}">`);
    expect(row).toContain(
      '<td data-label="Requests"><span class="figures">24 h: <span class="num">4</span>, 7 days: <span class="num">4</span></span><svg class="chart"',
    );
    const days = listed.requests_daily as { date: string; requests: number }[];
    const label = `Requests per day, ${days[0]!.date} to ${today()}: 4 requests in total, most on ${today()} (4)`;
    expect(row).toContain(
      `<svg class="chart" role="img" aria-label="${label}" width="119" height="28" viewBox="0 0 119 28">`,
    );
    expect(row).toContain(`<title>${days.map((d) => `${d.date}: ${d.requests}`).join("\n")}</title>`);
    expect(row.match(/<rect /g)).toHaveLength(30);
    expect(row).toContain(
      `<rect x="116" y="1" width="3" height="26" class="chart-bar"><title>${today()}: 4 requests</title></rect>`,
    );
    expect(row).toContain(
      `<rect x="0" y="27" width="3" height="0" class="chart-bar"><title>${days[0]!.date}: 0 requests</title></rect>`,
    );
  });

  it("says a key without requests has none, instead of an empty chart that looks like an input", async () => {
    const { record } = await makeKey({ name: "Unused" });
    const { cookie } = await login();
    const row = keyRowOf(await call("/dashboard", { headers: { Cookie: cookie } }), record.id);
    expect(row).toContain(
      '<td data-label="Requests"><span class="figures">24 h: <span class="num">0</span>, 7 days: <span class="num">0</span></span>' +
        '<span class="hint chart-none">no requests in 30 days</span></td>',
    );
    expect(row).not.toContain("<svg");
  });

  it("shows the newest 50 audit entries, newest first", async () => {
    for (let i = 0; i < 55; i++) await makeKey({ name: `key ${i}` });
    const { cookie } = await login();
    const page = await call("/dashboard", { headers: { Cookie: cookie } });
    expect(page.text).toContain('<h2 id="audit-heading">Audit log</h2>');
    expect(page.text).toContain("<caption>The newest 50 key changes, newest first.</caption>");
    const rows = auditRowsOf(page);
    expect(rows).toHaveLength(50);
    expect(
      rows.map(
        (r) =>
          /<td data-label="Action">create<\/td><td data-label="Key"><code>[^<]+<\/code><\/td><td data-label="New key">–<\/td><td data-label="Enrollment code">–<\/td><td data-label="Name">([^<]+)<\/td>/.exec(
            r,
          )?.[1],
      ),
    ).toEqual(Array.from({ length: 50 }, (_, i) => `key ${54 - i}`));
    expect(rows.every((r) => r.includes('<td data-label="Actor">cli</td><td data-label="Session">–</td>'))).toBe(true);
  });
});
