// The dashboard's key list for a fleet (docs/specification.md section 9, "The dashboard's key list"),
// through HTTP into the worker: pages of 50 with links that keep the filters, each filter, the kept counts,
// refused filters, and what one page costs D1 (one page of key records, the use of the page's keys only).
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { KEY_COLUMNS } from "../../src/keys/keys.queries.ts";
import { type CallResult, call } from "../helpers/http.ts";
import { dashboardLogin, resetKeysAndAgents } from "../helpers/session.ts";
import { rowsReadOf, workOf } from "../helpers/timing-header.ts";

const ADMIN = env.ADMIN_TOKEN!;
const HOUR = 3_600_000;
const NOW = Date.now();
const AGENTS = [
  [1, "Asha", "Rao"],
  [2, "Vikram", "Shetty"],
  [3, "Meena", "Iyer"],
] as const;

interface Seeded {
  id: string;
  name: string;
  mode: "test" | "live";
  agent: number | null;
  status: "active" | "grace" | "expired" | "revoked";
  rotation: "none" | "due" | "rotated" | "rolled";
  /** For a rotated key: uses after its successor's first use. */
  late: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Key records written straight into D1 in one batch (the list reads D1 only): key i is made i minutes
 * after the first, so the newest is the last; `shape` gives each its name, mode, agent and status.
 */
async function seedKeys(count: number, shape: (i: number) => Partial<Omit<Seeded, "id">> = () => ({})) {
  const insert = env.DB.prepare(
    `INSERT INTO api_keys (${KEY_COLUMNS}, rotation_state, rotation_requested_at, rotated_at, old_key_uses_after_successor) ` +
      "VALUES (?1, ?2, ?3, 'sk_test_Ab12…', ?4, ?5, ?6, ?7, NULL, ?8, 'read,write', ?9, ?1, ?10, ?11, ?12, ?13)",
  );
  const seeded: Seeded[] = [];
  const statements = Array.from({ length: count }, (_, i) => {
    const {
      name = `Phone ${i}`,
      mode = "test",
      agent = null,
      status = "active",
      rotation = "none",
      late = 0,
    } = shape(i);
    const id = `key_${String(i).padStart(16, "0")}`;
    seeded.push({ id, name, mode, agent, status, rotation, late });
    const created = NOW - 30 * 24 * HOUR + i * 60_000;
    const expires = status === "expired" ? iso(NOW - HOUR) : status === "grace" ? iso(NOW + HOUR) : null;
    const revoked = status === "revoked" ? iso(NOW - HOUR) : null;
    const replacedBy =
      status === "grace" || rotation === "rotated" || rotation === "rolled"
        ? `key_r${String(i).padStart(15, "0")}`
        : null;
    return insert.bind(
      id,
      name,
      mode,
      `hash${i}`,
      iso(created),
      expires,
      revoked,
      replacedBy,
      agent,
      rotation === "none" ? null : rotation,
      rotation === "none" ? null : iso(NOW - 2 * HOUR),
      rotation === "rotated" ? iso(NOW - HOUR) : null,
      late,
    );
  });
  await env.DB.batch(statements);
  return seeded;
}

/** The key ids of a page's table, top to bottom. */
function idsOf(res: CallResult): string[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(res.text)?.[1] ?? "";
  return [...body.matchAll(/<span class="hint">(key_[0-9A-Za-z]{16})<\/span>/g)].map((m) => m[1]!);
}

const newestFirst = (keys: Seeded[]) => keys.map((k) => k.id).reverse();

function countsOf(res: CallResult): string | undefined {
  return /<p class="counts" id="key-counts">([^<]*)<\/p>/.exec(res.text)?.[1];
}

function pagerOf(res: CallResult): string | undefined {
  return /<nav class="pager"[^>]*>([\s\S]*?)<\/nav>/.exec(res.text)?.[1];
}

let cookie: string;
const get = (path: string) => call(path, { headers: { Cookie: cookie } });

beforeEach(async () => {
  await resetKeysAndAgents(AGENTS);
  cookie = (await dashboardLogin()).cookie;
});

describe("the key list's pages", () => {
  it("shows 50 keys a page, newest first, each page after the last key of the one before", async () => {
    const keys = await seedKeys(120);
    const ids = newestFirst(keys);
    const first = await get("/dashboard");
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual(ids.slice(0, 50));
    expect(first.text).toContain("<caption>Keys, newest first, 50 a page.");
    expect(pagerOf(first)).toBe(
      `<span class="off">Newest keys</span><a href="/dashboard?before=${ids[49]}" rel="next">Older keys</a>`,
    );
    const second = await get(`/dashboard?before=${ids[49]}`);
    expect(idsOf(second)).toEqual(ids.slice(50, 100));
    expect(second.text).toContain("<caption>Keys older than the previous page&#39;s, newest first, 50 a page.");
    expect(pagerOf(second)).toBe(
      `<a href="/dashboard">Newest keys</a><a href="/dashboard?before=${ids[99]}" rel="next">Older keys</a>`,
    );
    const last = await get(`/dashboard?before=${ids[99]}`);
    expect(idsOf(last)).toEqual(ids.slice(100));
    expect(pagerOf(last)).toBe('<a href="/dashboard">Newest keys</a><span class="off">Older keys</span>');
    // A key made while the operator pages does not shift the pages: the next one still starts after its key.
    await env.DB.prepare(
      "INSERT INTO api_keys (id, name, mode, prefix, hash, created_at, scopes, lineage_id) " +
        "VALUES ('key_NEWNEWNEWNEWNEW1', 'Phone new', 'test', 'sk_test_Ab12…', 'hashnew', ?1, 'read', 'key_NEWNEWNEWNEWNEW1')",
    )
      .bind(iso(NOW))
      .run();
    expect(idsOf(await get("/dashboard"))[0]).toBe("key_NEWNEWNEWNEWNEW1");
    expect(idsOf(await get(`/dashboard?before=${ids[99]}`))).toEqual(ids.slice(100));
    // Past the oldest key: said so, with the way back, never another page shown in its place.
    const past = await get(`/dashboard?before=${ids[119]}`);
    expect(past.status).toBe(200);
    expect(idsOf(past)).toEqual([]);
    expect(past.text).toContain('<p>No older key matches these filters. <a href="/dashboard">Newest keys</a></p>');
  });

  it("keeps the filters in every page's link", async () => {
    const keys = await seedKeys(130, (i) => ({ mode: i % 2 === 0 ? "live" : "test", agent: 2 }));
    const live = newestFirst(keys.filter((k) => k.mode === "live"));
    const first = await get("/dashboard?name=phone&agent=2&mode=live");
    expect(idsOf(first)).toEqual(live.slice(0, 50));
    expect(pagerOf(first)).toBe(
      '<span class="off">Newest keys</span>' +
        `<a href="/dashboard?name=phone&amp;agent=2&amp;mode=live&amp;before=${live[49]}" rel="next">Older keys</a>`,
    );
    const res = await get(`/dashboard?name=phone&agent=2&mode=live&before=${live[49]}`);
    expect(idsOf(res)).toEqual(live.slice(50, 65));
    expect(pagerOf(res)).toBe(
      '<a href="/dashboard?name=phone&amp;agent=2&amp;mode=live">Newest keys</a><span class="off">Older keys</span>',
    );
    // The filter form shows what the list is filtered by.
    expect(res.text).toContain(
      '<input id="filter-name" name="name" type="search" maxlength="100" autocomplete="off" value="phone"/>',
    );
    expect(res.text).toContain('<option value="2" selected="">Vikram Shetty (#2)</option>');
    expect(res.text).toContain('<option value="live" selected="">live</option>');
  });

  it("says when there are no keys, and when none matches", async () => {
    const empty = await get("/dashboard");
    expect(empty.text).toContain("<p>No keys yet.</p>");
    expect(countsOf(empty)).toBe("0 keys in all.");
    await seedKeys(3);
    const none = await get("/dashboard?name=tablet");
    expect(none.text).toContain("<p>No key matches these filters.</p>");
    expect(pagerOf(none)).toBeUndefined();
  });
});

describe("the key list's filters and counts", () => {
  const shapes = (i: number): Partial<Omit<Seeded, "id">> => ({
    name: [`Till ${i}`, `Scanner ${i}`, `50%_off ${i}`][i % 3],
    mode: i % 4 === 0 ? "live" : "test",
    agent: [null, 1, 2, 3][i % 4] ?? null,
    status: (["active", "active", "grace", "expired", "revoked"] as const)[i % 5],
    rotation: (["none", "none", "due", "rotated", "rolled", "none", "due"] as const)[i % 7],
    late: i % 7 === 3 && i % 2 === 0 ? 2 : 0,
  });

  it("filters by a part of the name in any case, by agent or no agent, by mode, status and rotation", async () => {
    // One page's worth, so that each list is whole.
    const keys = await seedKeys(48, shapes);
    const expectList = async (query: string, want: (k: Seeded) => boolean) => {
      const res = await get(`/dashboard?${query}`);
      expect({ query, status: res.status, ids: idsOf(res) }).toEqual({
        query,
        status: 200,
        ids: newestFirst(keys.filter(want)),
      });
    };
    await expectList("name=SCAN", (k) => k.name.startsWith("Scanner"));
    // LIKE's wildcards are plain characters here.
    await expectList("name=%25_", (k) => k.name.startsWith("50%_off"));
    await expectList("name=n%201", (k) => /n 1\d*$/.test(k.name));
    await expectList("agent=3", (k) => k.agent === 3);
    await expectList("agent=none", (k) => k.agent === null);
    await expectList("agent=9", () => false);
    await expectList("mode=live", (k) => k.mode === "live");
    for (const status of ["active", "grace", "expired", "revoked"] as const) {
      await expectList(`status=${status}`, (k) => k.status === status);
    }
    await expectList(
      "name=till&agent=none&mode=live&status=active",
      (k) => k.name.startsWith("Till") && k.agent === null && k.mode === "live" && k.status === "active",
    );
    // Empty parameters are no filter (the form sends every field).
    await expectList("name=&agent=&mode=&status=&rotation=&before=", () => true);
  });

  it("counts the whole fleet's keys and their rotation, whatever the filters, and keeps the counts as keys change", async () => {
    const keys = await seedKeys(60, shapes);
    const progress = (list: Seeded[]) => {
      const n = (r: Seeded["rotation"]) => list.filter((k) => k.rotation === r).length;
      const late = list.filter((k) => k.late > 0).length;
      return (
        `Rotation: ${n("due")} due, ${n("rotated")} rotated, ${n("rolled")} rolled instead. ` +
        `<span class="status status-warn">${late} old keys were used after their successor</span>`
      );
    };
    const progressOf = (res: CallResult) =>
      /<p class="counts" id="rotation-progress">([\s\S]*?)<\/p>/.exec(res.text)?.[1];
    // The filters narrow the list, not the counts.
    for (const query of ["", "agent=1&status=revoked", "rotation=due", "mode=test&rotation=rotated"]) {
      const res = await get(`/dashboard?${query}`);
      expect({ query, counts: countsOf(res), progress: progressOf(res) }).toEqual({
        query,
        counts: "60 keys in all.",
        progress: progress(keys),
      });
    }
    const res = await get("/dashboard?mode=test&status=grace");
    expect(res.text).toContain('<option value="grace" selected="">expiring</option>');
    const n = (r: Seeded["rotation"]) => keys.filter((k) => k.rotation === r).length;
    expect(res.text).toContain(`<option value="due">rotation due (${n("due")})</option>`);
    expect(res.text).toContain(`<option value="none">not asked (${n("none")})</option>`);

    // Kept as the keys change: a rotation asked for, a late use counted, a key deleted, a key made.
    const notAsked = keys.filter((k) => k.rotation === "none" && k.status === "active");
    const asked = await call("/admin/keys/rotation", {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ids: notAsked.map((k) => k.id) }),
    });
    expect(asked.body).toEqual({ data: { requested: notAsked.length } });
    for (const k of notAsked) k.rotation = "due";
    const rotated = keys.find((k) => k.rotation === "rotated" && k.late === 0)!;
    await env.DB.prepare("UPDATE api_keys SET old_key_uses_after_successor = 4 WHERE id = ?1").bind(rotated.id).run();
    rotated.late = 4;
    const gone = keys.find((k) => k.rotation === "rolled")!;
    await env.DB.prepare("DELETE FROM api_keys WHERE id = ?1").bind(gone.id).run();
    const kept = keys.filter((k) => k !== gone);
    const after = await get("/dashboard");
    expect({ counts: countsOf(after), progress: progressOf(after) }).toEqual({
      counts: "59 keys in all.",
      progress: progress(kept),
    });
    // The kept counts agree with the table counted whole.
    const { results } = await env.DB.prepare(
      "SELECT coalesce(rotation_state, 'none') AS r, count(*) AS n FROM api_keys GROUP BY r ORDER BY r",
    ).all<{ r: string; n: number }>();
    const counted = await env.DB.prepare(
      "SELECT substr(name, 19) AS r, n FROM row_counts WHERE name LIKE 'api_keys.rotation.%' AND n > 0 ORDER BY r",
    ).all<{ r: string; n: number }>();
    expect(counted.results).toEqual(results);
  });

  it("agrees with the admin API on every key's status", async () => {
    await seedKeys(20, shapes);
    const listed = (await call("/admin/keys", { headers: { Authorization: `Bearer ${ADMIN}` } })).body.data as any[];
    for (const status of ["active", "grace", "expired", "revoked"]) {
      const want = listed
        .filter((k) => k.status === status)
        .map((k) => k.id)
        .reverse();
      expect(want.length).toBeGreaterThan(0);
      expect(idsOf(await get(`/dashboard?status=${status}`))).toEqual(want);
    }
  });

  it("offers every agent that a key is bound to, by name, and no other", async () => {
    await seedKeys(4, (i) => ({ agent: [2, 3, 2, null][i] ?? null }));
    await env.DB.prepare("UPDATE api_keys SET agent_id = 7 WHERE id = ?1").bind("key_0000000000000003").run();
    const res = await get("/dashboard");
    const select = /<select id="filter-agent" name="agent">([\s\S]*?)<\/select>/.exec(res.text)?.[1];
    expect(select).toBe(
      '<option value="" selected="">any</option><option value="none">no agent (every customer)</option>' +
        '<option value="7">#7 (no longer a sales agent)</option><option value="3">Meena Iyer (#3)</option>' +
        '<option value="2">Vikram Shetty (#2)</option>',
    );
  });

  it("refuses bad filters with a 422 that names each, and shows the whole list", async () => {
    const keys = await seedKeys(3);
    const res = await get(`/dashboard?name=${"x".repeat(101)}&agent=asha&mode=prod&status=old&rotation=soon&before=7`);
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      '<div class="alert" role="alert"><p>The keys were not filtered: name must be at most 100 characters; ' +
        "agent must be a sales agent&#39;s id (a whole number from 1) or none; mode must be one of test, live; " +
        "status must be one of active, grace, expired, revoked; rotation must be one of none, due, rotated, rolled; " +
        "before must be a key&#39;s id.</p></div>",
    );
    expect(idsOf(res)).toEqual(newestFirst(keys));
    for (const before of ["key_1", "key_0000000000000000x", "1' OR 1=1"]) {
      expect((await get(`/dashboard?before=${encodeURIComponent(before)}`)).status).toBe(422);
    }
  });
});

describe("what a page of the list costs D1", () => {
  /** `hours` hours of use for each of these keys, 3 requests an hour, ending now. */
  async function use(ids: string[], hours: number) {
    const nowHour = Math.floor(NOW / HOUR);
    const insert = env.DB.prepare("INSERT INTO key_usage (key_id, hour, requests) VALUES (?1, ?2, 3)");
    await env.DB.batch(ids.flatMap((id) => Array.from({ length: hours }, (_, h) => insert.bind(id, nowHour - h))));
  }

  it("reads one page of key records, the kept counts, and the use of the page's keys only", async () => {
    const emptyPage = await get("/dashboard");
    const base = rowsReadOf(emptyPage);
    const keys = await seedKeys(500, (i) => ({ agent: i % 2 === 0 ? (i % 3) + 1 : null }));
    const ids = newestFirst(keys);
    const onPage2 = ids.slice(50, 100);
    const page2Path = `/dashboard?before=${ids[49]}`;

    const page2 = await get(page2Path);
    expect(idsOf(page2)).toEqual(onPage2);
    const rows = rowsReadOf(page2);
    // Beside the page's fixed reads (session, audit, form token, the kept counts): the 51 keys walked on the
    // index (its entry and its row), their anchor, one count row per agent with keys and each agent's name;
    // the use of 50 keys that have none costs at most 2 rows each.
    expect(rows - base).toBeGreaterThanOrEqual(2 * 51);
    expect(rows - base).toBeLessThanOrEqual(2 * 51 + 3 + 3 * 2 + 2 * 50);
    // One round trip more than with no key at all: the page's use.
    expect(workOf(page2).d1).toBe(workOf(emptyPage).d1 + 1);

    // The other 450 keys' use is never read...
    await use(
      ids.filter((id) => !onPage2.includes(id)),
      24,
    );
    expect(rowsReadOf(await get(page2Path))).toBe(rows);
    // ... the page's keys' use is: each hour of it by key_usage's primary key (its index and its row).
    await use(onPage2, 24);
    const used = await get(page2Path);
    expect(rowsReadOf(used) - rows).toBeGreaterThanOrEqual(50 * 24);
    expect(rowsReadOf(used) - rows).toBeLessThanOrEqual(2 * 50 * 24);
    expect(used.text.match(/24 h: <span class="num">72<\/span>, 7 days: <span class="num">72<\/span>/g)).toHaveLength(
      50,
    );
  });
});
