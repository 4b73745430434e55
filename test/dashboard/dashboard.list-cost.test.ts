// What the operator's lists cost D1 at a fleet's size (docs/specification.md section 7: every list that an
// operator pages through reads one page's rows, not the table): 5,000 keys with their audit entries and 500
// enrollment codes, inserted by SQL in one statement each; the rows read come from the answers' Server-Timing.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type CallResult, call } from "../helpers/http.ts";
import { dashboardLogin } from "../helpers/session.ts";
import { seedFixture } from "../helpers/seed.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";

const ADMIN = { Authorization: `Bearer ${env.ADMIN_TOKEN!}` };
const KEYS = 5_000;
const CODES = 500;
/** One page of 50 and whatever a signed-in page reads besides (its session, its form token, the agents). */
const PAGE_BOUND = 200;
/**
 * What each key shown costs: its entry in the index walked, its row, its id in the usage's list and its usage
 * (none here). The dashboard shows two lists, keys and the audit's newest entries: each is one page.
 */
const KEY_ROWS = 5;

const rows = (n: number, select: string) =>
  `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n}) ${select} FROM n`;

let cookie: string;

beforeAll(async () => {
  await seedFixture();
  await env.DB.batch([
    env.DB.prepare(
      rows(
        KEYS,
        "INSERT INTO api_keys (id, name, mode, prefix, hash, created_at, scopes, agent_id, lineage_id) " +
          "SELECT 'key_' || printf('%016d', i), 'phone ' || i, 'test', 'sk_test_x…', 'cost-' || i, " +
          "strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' seconds'), 'read,write', 1 + i % 3, " +
          "'key_' || printf('%016d', i)",
      ),
    ),
    env.DB.prepare(
      rows(
        KEYS,
        "INSERT INTO key_audit (at, action, key_id, key_name, mode, actor) " +
          "SELECT '2026-01-01T00:00:00.000Z', 'create', 'key_' || printf('%016d', i), 'phone ' || i, 'test', 'cli'",
      ),
    ),
    env.DB.prepare(
      rows(
        CODES,
        "INSERT INTO enrollment_codes (id, code_hash, agent_id, mode, scopes, name, created_at, expires_at) " +
          "SELECT 'enr_' || printf('%016d', i), 'cost-' || i, 1 + i % 3, 'test', 'read', 'phone ' || i, " +
          "'2030-01-01T00:00:00.' || printf('%03d', i % 1000) || 'Z', '2030-01-02T00:00:00.000Z'",
      ),
    ),
  ]);
  cookie = (await dashboardLogin()).cookie;
});

describe(`at ${KEYS} keys and ${CODES} enrollment codes`, () => {
  it("the enrollment codes page reads one page of codes, on every page", async () => {
    const first = await call("/dashboard/enrollments", { headers: { Cookie: cookie } });
    expect(first.status).toBe(200);
    expect(rowsReadOf(first)).toBeLessThan(PAGE_BOUND);
    const older = /href="\/dashboard\/enrollments\?before=([^"]+)">Older codes/.exec(first.text)![1]!;
    const second = await call(`/dashboard/enrollments?before=${older}`, { headers: { Cookie: cookie } });
    expect(second.status).toBe(200);
    expect(rowsReadOf(second)).toBeLessThan(PAGE_BOUND);
  });

  it("the key list reads one page of key records (and the kept counts), on any page and by each indexed filter", async () => {
    const get = (path: string) => call(path, { headers: { Cookie: cookie } });
    // The dashboard shows the audit's newest entries beside the key list: what it reads with no key to show.
    const base = rowsReadOf(await get("/dashboard?agent=999"));
    const oldest = `key_${"1".padStart(16, "0")}`;
    for (const path of [
      "/dashboard",
      "/dashboard?agent=2",
      "/dashboard?mode=test",
      "/dashboard?rotation=none",
      "/dashboard?agent=1&status=active",
      "/dashboard?name=phone",
      `/dashboard?before=key_${"60".padStart(16, "0")}`,
    ]) {
      const first = await get(path);
      expect(first.status).toBe(200);
      expect(first.text).toContain('<p class="counts" id="key-counts">5000 keys in all.</p>');
      expect(first.text).toContain(
        '<p class="counts" id="rotation-progress">Rotation: 0 due, 0 rotated, 0 rolled instead.</p>',
      );
      const older = /href="([^"]+)" rel="next">Older keys/.exec(first.text)![1]!.replaceAll("&amp;", "&");
      const second = await get(older);
      expect(second.status).toBe(200);
      const read = [rowsReadOf(first), rowsReadOf(second)];
      expect({ path, read, onePage: read.every((n) => n < 2 * PAGE_BOUND && n - base <= KEY_ROWS * 50) }).toEqual({
        path,
        read,
        onePage: true,
      });
    }
    const last = await get(`/dashboard?before=${oldest}`);
    expect(last.text).toContain("<p>No older key matches these filters.");
    expect(rowsReadOf(last) - base).toBeLessThan(10);
  });

  it("the admin API's codes list reads one page of codes, on every page, and links the next", async () => {
    const first = await call("/admin/enrollments", { headers: ADMIN });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(50);
    expect(rowsReadOf(first)).toBeLessThan(PAGE_BOUND);
    const last = (first.body.data as { id: string }[]).at(-1)!.id;
    expect(first.headers.get("Link")).toBe(`</admin/enrollments?before=${last}>; rel="next"`);
    const ids = new Set<string>((first.body.data as { id: string }[]).map((c) => c.id));
    let next: string | null = `/admin/enrollments?before=${last}`;
    while (next !== null) {
      const page: CallResult = await call(next, { headers: ADMIN });
      expect(rowsReadOf(page)).toBeLessThan(PAGE_BOUND);
      for (const code of page.body.data as { id: string }[]) ids.add(code.id);
      next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get("Link") ?? "")?.[1] ?? null;
    }
    expect(ids.size).toBe(CODES);
    expect((await call("/admin/enrollments?before=x", { headers: ADMIN })).status).toBe(422);
  });

  it("the audit reads the newest entries only", async () => {
    const res = await call("/admin/audit", { headers: ADMIN });
    expect(res.body.data).toHaveLength(50);
    expect(rowsReadOf(res)).toBeLessThan(PAGE_BOUND);
  });
});
