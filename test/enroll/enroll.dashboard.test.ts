// The dashboard's enrollment codes page (docs/specification.md section 9): make a code for an agent, shown once as
// text and as an inline QR code on the form's own answer; the same form sent again answers 303 to the list and
// shows nothing; revoke answers 303; every change is audited with the dashboard session.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, type CallResult, call, statusAndHeaders } from "../helpers/http.ts";
import { auditSessionId } from "../helpers/session.ts";
import { seedFixture } from "../helpers/seed.ts";

const bearer = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const CODE = /<p class="code" id="new-code">([0-9A-Z-]{19})<\/p>/;

let cookie: string;

function send(path: string, fields: Record<string, string | string[]>): Promise<CallResult> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return call(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: cookie },
    body: body.toString(),
    redirect: "manual",
  });
}

function tokensOf(res: CallResult) {
  return {
    csrf_token: /name="csrf_token" value="([^"]+)"/.exec(res.text)![1]!,
    form_token: /name="form_token" value="([^"]+)"/.exec(res.text)![1]!,
  };
}

const page = (path = "/dashboard/enrollments") => call(path, { headers: { Cookie: cookie } });

beforeAll(async () => {
  await seedFixture();
  const res = await call("/dashboard/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams({ token: env.ADMIN_TOKEN! }).toString(),
    redirect: "manual",
  });
  cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
});

describe("the enrollment codes page", () => {
  it("says why an agent search was refused, in the page, as the key page does", async () => {
    const long = await page(`/dashboard/enrollments?agent_q=${"x".repeat(101)}`);
    expect(long.status).toBe(422);
    expect(long.text).toContain(
      '<div class="alert" role="alert"><p>The agents were not searched: q must be at most 100 characters.</p></div>',
    );
    expect(long.text).toContain("<h1>Enrollment codes</h1>");
  });

  it("finds the agent, makes a code shown once with its QR code, and a resent form makes nothing", async () => {
    const search = await page("/dashboard/enrollments?agent_q=Meena");
    expect(search.status).toBe(200);
    expect(search.text).toContain('<input type="radio" name="agent_id" value="3" checked="" required=""');
    expect(search.text).not.toContain("no agent (every customer)");
    const fields = {
      ...tokensOf(search),
      agent_id: "3",
      mode: "test",
      scopes: ["read"],
      expires_in: "3600",
      key_expires_in: "",
      name: "",
    };
    const made = await send("/dashboard/enrollments", fields);
    expect(statusAndHeaders(made, "Cache-Control")).toEqual({ status: 200, "Cache-Control": "no-store" });
    const code = CODE.exec(made.text)?.[1];
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(made.text).toContain('<h2 id="new-code-heading">New enrollment code for Meena Iyer</h2>');
    expect(made.text).toContain(`<code>${BASE}/enroll#${code}</code>`);
    expect(made.text).toMatch(
      /<svg class="qr" role="img" aria-label="QR code of the enrollment link for Meena Iyer" viewBox="0 0 \d+ \d+" xmlns="http:\/\/www.w3.org\/2000\/svg"><path d="M[^"]+"\/?>(<\/path>)?<\/svg>/,
    );
    expect(made.text).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1|www\.w3\.org)/);

    const again = await send("/dashboard/enrollments", fields);
    expect({ ...statusAndHeaders(again, "Location"), text: again.text }).toEqual({
      status: 303,
      Location: "/dashboard/enrollments?notice=already-sent",
      text: "",
    });
    const list = await page("/dashboard/enrollments?notice=already-sent");
    expect(list.text).toContain("That form had already been sent, so it was not sent again: nothing changed.");
    expect(list.text).not.toContain(code!);
    expect(list.text).not.toContain("<svg");
    const codes = (await call("/admin/enrollments", { headers: bearer })).body.data;
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ agent_id: 3, scopes: ["read"], status: "pending", name: "Meena Iyer" });
    expect(list.text).toContain(`<span class="hint">${codes[0].id}</span>`);

    const revoked = await send(`/dashboard/enrollments/${codes[0].id}/revoke`, { csrf_token: fields.csrf_token });
    expect(statusAndHeaders(revoked, "Location")).toEqual({
      status: 303,
      Location: `/dashboard/enrollments?revoked=${codes[0].id}`,
    });
    const after = await page(`/dashboard/enrollments?revoked=${codes[0].id}`);
    expect(after.text).toContain(`Enrollment code ${codes[0].id} (“Meena Iyer”) is revoked.`);
    expect(after.text).toContain('<span class="status status-revoked">revoked</span>');
    expect(after.text).not.toContain(`/dashboard/enrollments/${codes[0].id}/revoke`);

    const session = await auditSessionId(cookie);
    const entries = (await call("/admin/audit", { headers: bearer })).body.data;
    expect(entries.map((e: any) => [e.action, e.code_id, e.actor, e.session_id])).toEqual([
      ["revoke-code", codes[0].id, "dashboard", session],
      ["enroll-code", codes[0].id, "dashboard", session],
    ]);
    const panel = await page("/dashboard");
    expect(panel.text).toContain(
      `<td data-label="Action">revoke-code</td><td data-label="Key">–</td><td data-label="New key">–</td><td data-label="Enrollment code"><code>${codes[0].id}</code></td>`,
    );
  });

  it("a refused form keeps its values and names the problem; without a session, the login page", async () => {
    const form = await page();
    const res = await send("/dashboard/enrollments", { ...tokensOf(form), agent_id: "2", mode: "test" });
    expect(res.status).toBe(422);
    expect(res.text).toContain("The enrollment code was not made: scopes must name at least one scope: read, write.");
    expect(res.text).toContain('<input type="radio" name="agent_id" value="2" checked="" required=""');
    const anonymous = await call("/dashboard/enrollments");
    expect(anonymous.text).toContain("<h1>API key dashboard</h1>");
  });

  it("shows codes of more than 100 agents, a page of 50 at a time, newest first, with a link to the older ones", async () => {
    // 150 agents (ids 1001 to 1150), one code each, the newest the highest id: by SQL, one statement each.
    await env.DB.prepare(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150) " +
        "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) " +
        "SELECT 1000 + i, 'Agent', 'No ' || i, '98' || printf('%08d', i) FROM n",
    ).run();
    await env.DB.prepare(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150) " +
        "INSERT INTO enrollment_codes (id, code_hash, agent_id, mode, scopes, name, created_at, expires_at) " +
        "SELECT 'enr_many' || printf('%012d', i), 'hash' || i, 1000 + i, 'test', 'read,write', 'Phone ' || i, " +
        "'2030-01-01T00:00:00.' || printf('%03d', i) || 'Z', '2030-01-02T00:00:00.000Z' FROM n",
    ).run();
    const shown: string[] = [];
    let path: string | undefined = "/dashboard/enrollments";
    for (let pages = 0; path !== undefined; pages++) {
      expect(pages).toBeLessThan(4);
      const res = await page(path);
      expect(res.status).toBe(200);
      const ids = [...res.text.matchAll(/<span class="hint">(enr_many\d{12})<\/span>/g)].map((m) => m[1]!);
      expect(ids.length).toBe(pages < 3 ? 50 : 0);
      shown.push(...ids);
      // Every code's agent is named, from one query for the whole page.
      for (const id of ids) expect(res.text).toContain(`Agent No ${Number(id.slice(-12))}<br/>`);
      const older = /<a href="(\/dashboard\/enrollments\?before=[^"]+)">Older codes<\/a>/.exec(res.text)?.[1];
      path = older?.replaceAll("&amp;", "&");
      if (pages > 0) expect(res.text).toContain('<a href="/dashboard/enrollments">Newest codes</a>');
    }
    expect(shown).toEqual(Array.from({ length: 150 }, (_, i) => `enr_many${String(150 - i).padStart(12, "0")}`));
  });
});
