// The dashboard's key list for a fleet (docs/specification.md section 9, "The dashboard's key list"),
// through HTTP into the worker: pages of 50 with links that keep the filters, each filter, the counts,
// refused filters, and what one page costs D1 (the key records read once, the use of the page's keys only).
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { KEY_COLUMNS } from "../../src/keys/keys.records.ts";
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
  it("shows 50 keys a page, newest first, with links to the others", async () => {
    const keys = await seedKeys(120);
    const ids = newestFirst(keys);
    const first = await get("/dashboard");
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual(ids.slice(0, 50));
    expect(first.text).toContain("<caption>Keys 1 to 50 of 120, newest first.");
    expect(pagerOf(first)).toBe(
      '<span class="off">First</span><span class="off">Previous</span><span aria-current="page">Page 1 of 3</span>' +
        '<a href="/dashboard?page=2" rel="next">Next</a><a href="/dashboard?page=3">Last</a>',
    );
    const second = await get("/dashboard?page=2");
    expect(idsOf(second)).toEqual(ids.slice(50, 100));
    expect(second.text).toContain("<caption>Keys 51 to 100 of 120, newest first.");
    expect(pagerOf(second)).toBe(
      '<a href="/dashboard">First</a><a href="/dashboard" rel="prev">Previous</a>' +
        '<span aria-current="page">Page 2 of 3</span><a href="/dashboard?page=3" rel="next">Next</a>' +
        '<a href="/dashboard?page=3">Last</a>',
    );
    const last = await get("/dashboard?page=3");
    expect(idsOf(last)).toEqual(ids.slice(100));
    expect(last.text).toContain("<caption>Keys 101 to 120 of 120, newest first.");
    // Past the last page: said so, with the way back, never another page shown in its place.
    const past = await get("/dashboard?page=4");
    expect(past.status).toBe(200);
    expect(idsOf(past)).toEqual([]);
    expect(past.text).toContain(
      '<p>There is no page 4: the 120 matching keys fill 3 pages. <a href="/dashboard">First page</a></p>',
    );
  });

  it("keeps the filters in every page's link", async () => {
    const keys = await seedKeys(130, (i) => ({ mode: i % 2 === 0 ? "live" : "test", agent: 2 }));
    const live = newestFirst(keys.filter((k) => k.mode === "live"));
    const res = await get("/dashboard?name=phone&agent=2&mode=live&page=2");
    expect(idsOf(res)).toEqual(live.slice(50, 65));
    expect(pagerOf(res)).toBe(
      '<a href="/dashboard?name=phone&amp;agent=2&amp;mode=live">First</a>' +
        '<a href="/dashboard?name=phone&amp;agent=2&amp;mode=live" rel="prev">Previous</a>' +
        '<span aria-current="page">Page 2 of 2</span><span class="off">Next</span><span class="off">Last</span>',
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
    expect(countsOf(empty)).toBe("0 keys in all: 0 active, 0 expiring, 0 expired, 0 revoked.");
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
    await expectList("name=&agent=&mode=&status=&rotation=&page=", () => true);
  });

  it("counts the keys of each status among those the name, agent and mode filters leave", async () => {
    const keys = await seedKeys(60, shapes);
    const tally = (pick: (k: Seeded) => boolean) => {
      const kept = keys.filter(pick);
      const n = (s: Seeded["status"]) => kept.filter((k) => k.status === s).length;
      return `${n("active")} active, ${n("grace")} expiring, ${n("expired")} expired, ${n("revoked")} revoked`;
    };
    expect(countsOf(await get("/dashboard"))).toBe(`60 keys in all: ${tally(() => true)}.`);
    const agent1 = keys.filter((k) => k.agent === 1).length;
    // The status filter narrows the list, not the counts.
    for (const query of ["agent=1", "agent=1&status=revoked"]) {
      expect(countsOf(await get(`/dashboard?${query}`))).toBe(
        `${agent1} keys match the name, agent and mode filters: ${tally((k) => k.agent === 1)}.`,
      );
    }
    const progress = (pick: (k: Seeded) => boolean) => {
      const kept = keys.filter(pick);
      const n = (r: Seeded["rotation"]) => kept.filter((k) => k.rotation === r).length;
      const late = kept.filter((k) => k.late > 0).length;
      return (
        `Rotation: ${n("due")} due, ${n("rotated")} rotated, ${n("rolled")} rolled instead. ` +
        `<span class="status status-warn">${late} old keys were used after their successor</span>`
      );
    };
    // The rotation filter narrows the list, not the progress.
    for (const query of ["", "rotation=due", "mode=test&rotation=rotated"]) {
      const res = await get(`/dashboard?${query}`);
      const pick = query.includes("mode=test") ? (k: Seeded) => k.mode === "test" : () => true;
      expect(/<p class="counts" id="rotation-progress">([\s\S]*?)<\/p>/.exec(res.text)?.[1]).toBe(progress(pick));
    }
    const res = await get("/dashboard?mode=test&status=grace");
    expect(res.text).toContain(
      `<option value="grace" selected="">expiring (${keys.filter((k) => k.mode === "test" && k.status === "grace").length})</option>`,
    );
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
    const res = await get(`/dashboard?name=${"x".repeat(101)}&agent=asha&mode=prod&status=old&rotation=soon&page=0`);
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      '<div class="alert" role="alert"><p>The keys were not filtered: name must be at most 100 characters; ' +
        "agent must be a sales agent&#39;s id (a whole number from 1) or none; mode must be one of test, live; " +
        "status must be one of active, grace, expired, revoked; rotation must be one of none, due, rotated, rolled; " +
        "page must be a whole number from 1 to 10000.</p></div>",
    );
    expect(idsOf(res)).toEqual(newestFirst(keys));
    for (const page of ["-1", "1.5", "10001", "two"]) {
      expect((await get(`/dashboard?page=${page}`)).status).toBe(422);
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

  it("reads each key record once, its agent's name, and the use of the page's keys only", async () => {
    const emptyPage = await get("/dashboard");
    const base = rowsReadOf(emptyPage);
    const keys = await seedKeys(500, (i) => ({ agent: i % 2 === 0 ? (i % 3) + 1 : null }));
    const withAgent = keys.filter((k) => k.agent !== null).length;
    const ids = newestFirst(keys);
    const onPage2 = ids.slice(50, 100);

    const page2 = await get("/dashboard?page=2");
    expect(idsOf(page2)).toEqual(onPage2);
    const rows = rowsReadOf(page2);
    // Beside the page's fixed reads (session, audit, form token): every key row once and each bound
    // key's agent by its primary key; the use of 50 keys that have none costs at most 3 rows each.
    expect(rows - base - 500 - withAgent).toBeGreaterThanOrEqual(0);
    expect(rows - base - 500 - withAgent).toBeLessThanOrEqual(3 * 50);
    // As many round trips as with no key at all.
    expect(workOf(page2).d1).toBe(workOf(emptyPage).d1 + 1);

    // The other 450 keys' use is never read...
    await use(
      ids.filter((id) => !onPage2.includes(id)),
      24,
    );
    expect(rowsReadOf(await get("/dashboard?page=2"))).toBe(rows);
    // ... the page's keys' use is: each hour of it by key_usage's primary key (its index and its row).
    await use(onPage2, 24);
    const used = await get("/dashboard?page=2");
    expect(rowsReadOf(used) - rows).toBeGreaterThanOrEqual(50 * 24);
    expect(rowsReadOf(used) - rows).toBeLessThanOrEqual(2 * 50 * 24);
    expect(used.text.match(/24 h: <span class="num">72<\/span>, 7 days: <span class="num">72<\/span>/g)).toHaveLength(
      50,
    );
  });
});
