// The dashboard's key list for a fleet (docs/specification.md section 9, "The dashboard's key list") in a
// real headless Chromium against a real `wrangler dev`: an administrator with 120 keys filters the list,
// pages through it (Back shows the page before), asks for the rotation of a few selected keys and then of
// an agent's, sees the progress move as an app rotates, and reloads each page that answered a POST without
// repeating anything; at 1280 px without scrolling sideways, and axe finds nothing serious. One page load
// per step.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./helpers/axe.ts";
import { SKIP_BROWSER_TESTS } from "./helpers/browser.ts";
import { closeDashboard, type Dashboard, logIn, openDashboard, type Server } from "./helpers/dashboard.ts";

const AGENTS_SQL =
  "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES " +
  "(1, 'Asha', 'Rao', '9876543210'), (2, 'Vikram', 'Shetty', '9876500002')";
const KEYS = 120;
/** Key i: a phone of agent 1 or 2, or a server key with no agent; every fifth in live mode. */
const shape = (i: number) => ({
  name: i % 3 === 2 ? `Server ${i}` : `Phone ${i}`,
  mode: i % 5 === 0 ? "live" : "test",
  agent_id: i % 3 === 2 ? null : (i % 3) + 1,
});

describe.skipIf(SKIP_BROWSER_TESTS)("the key list of a fleet in Chromium", () => {
  let ui: Dashboard;
  let server: Server;
  let page: Page;
  /** Each key's secret, by id, for the app that rotates it. */
  const secrets = new Map<string, string>();

  const rowNames = () => page.locator("table.keys tbody th").allTextContents();
  const progress = () => page.locator("#rotation-progress").textContent();
  const rotationRequests = async () =>
    ((await ui.admin("/admin/audit?limit=1000")) as any[]).filter((e) => e.action === "rotation-requested").length;
  const counts = () => page.locator("#key-counts").textContent();

  /** Neither the page nor the key table scrolls sideways. */
  async function sidewaysOverflow() {
    return page.evaluate(() => {
      const wrap = document.querySelector(".table-wrap:has(table.keys)")!;
      const root = document.documentElement;
      return { page: root.scrollWidth - root.clientWidth, table: wrap.scrollWidth - wrap.clientWidth };
    });
  }

  beforeAll(async () => {
    ui = await openDashboard({
      vars: { USAGE_FLUSH_SECONDS: "0" },
      sql: AGENTS_SQL,
      viewport: { width: 1280, height: 900 },
    });
    ({ server, page } = ui);
    // Through the admin API (the key store), eight at a time: a sign-in in flight holds one of the ten
    // places of the administrator's sign-in throttle (docs/specification.md section 2).
    for (let i = 0; i < KEYS; i += 8) {
      const made = await Promise.all(
        Array.from({ length: 8 }, (_, j) => ui.admin("/admin/keys", { body: { ...shape(i + j), scopes: ["read"] } })),
      );
      for (const key of made) secrets.set(key.id, key.secret);
    }
  });

  afterAll(() => closeDashboard(ui));

  it("logs in to the first page of 50, with the counts, at 1280 px without scrolling sideways", async () => {
    await logIn(page, server.url, ui.adminToken);
    expect(await counts()).toBe("120 keys in all.");
    expect(await rowNames()).toHaveLength(50);
    expect(await page.getByRole("navigation", { name: "Pages of the key list" }).textContent()).toBe(
      "Newest keysOlder keys",
    );
    expect(await sidewaysOverflow()).toEqual({ page: 0, table: 0 });
    await expectNoSeriousViolations(page, "the first page of a fleet's key list");
  });

  it("filters by agent, mode and name through the form; the address holds the filters", async () => {
    const form = page.getByRole("search", { name: "Filter the keys" });
    await form.getByLabel("Agent", { exact: true }).selectOption({ label: "Vikram Shetty (#2)" });
    await form.getByLabel("Mode", { exact: true }).selectOption("test");
    await form.getByLabel("Name contains").fill("phone 1");
    await form.getByRole("button", { name: "Show keys" }).click();
    await page.waitForURL(/agent=2/);
    expect(new URL(page.url()).search).toBe("?name=phone+1&agent=2&mode=test&status=&rotation=");
    const want = Array.from({ length: KEYS }, (_, i) => i)
      .filter((i) => shape(i).agent_id === 2 && shape(i).mode === "test" && `Phone ${i}`.startsWith("Phone 1"))
      .map((i) => `Phone ${i}`);
    // Made eight at a time, some in the same millisecond: the order is the worker tests' to check.
    expect((await rowNames()).sort()).toEqual(want.sort());
    // The counts are the whole fleet's, whatever the filters.
    expect(await counts()).toBe("120 keys in all.");
    expect(await sidewaysOverflow()).toEqual({ page: 0, table: 0 });
    await expectNoSeriousViolations(page, "a filtered key list");
  });

  it("pages through the list with its links, each key once; Back shows the page before", async () => {
    await page.getByRole("link", { name: "Clear the filters" }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByRole("link", { name: "Older keys" }).click();
    await page.waitForURL(/\/dashboard\?before=key_/);
    const secondUrl = page.url();
    const second = await rowNames();
    await page.getByRole("link", { name: "Older keys" }).click();
    await page.waitForURL((url) => url.href !== secondUrl && url.search.startsWith("?before=key_"));
    const third = await rowNames();
    await page.goBack();
    expect(page.url()).toBe(secondUrl);
    expect(await rowNames()).toEqual(second);
    await page.goBack();
    expect(page.url()).toBe(`${server.url}/dashboard`);
    const all = [...(await rowNames()), ...second, ...third];
    expect([second.length, third.length]).toEqual([50, 20]);
    expect(all.sort()).toEqual(Array.from({ length: KEYS }, (_, i) => shape(i).name).sort());
  });

  let chosen: string[];

  it("asks for the rotation of the selected keys; reloading the page it led to repeats nothing", async () => {
    await page.goto(`${server.url}/dashboard?agent=1`);
    const boxes = page.locator('table.keys tbody input[type="checkbox"]');
    expect(await boxes.count()).toBe(40);
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    chosen = await Promise.all([0, 1, 2].map((i) => boxes.nth(i).getAttribute("value") as Promise<string>));
    await page.getByRole("button", { name: "Request rotation of the selected keys" }).click();
    await page.waitForURL(`${server.url}/dashboard?agent=1&requested=3`);
    expect(await page.getByRole("status").textContent()).toMatch(/^Rotation was requested for 3 keys\./);
    expect(await progress()).toBe("Rotation: 3 due, 0 rotated, 0 rolled instead.");
    const due = page.locator("table.keys tbody tr").filter({ has: page.locator(".rotation-due") });
    expect(
      (await due.evaluateAll((rows) => rows.map((r) => r.querySelector("td:nth-child(3) .hint")?.textContent))).sort(),
    ).toEqual([...chosen].sort());
    expect(await rotationRequests()).toBe(3);
    await page.reload();
    expect(await rotationRequests()).toBe(3);
    expect(await progress()).toBe("Rotation: 3 due, 0 rotated, 0 rolled instead.");
    expect(await sidewaysOverflow()).toEqual({ page: 0, table: 0 });
    await expectNoSeriousViolations(page, "the key list with keys due for rotation");
  });

  it("sees the progress move as an app rotates its key", async () => {
    const res = await fetch(`${server.url}/keys/rotate`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secrets.get(chosen[0]!)}` },
    });
    expect(res.status).toBe(201);
    const successor = ((await res.json()) as { data: { id: string } }).data;
    await page.reload();
    expect(await progress()).toBe("Rotation: 2 due, 1 rotated, 0 rolled instead.");
    const old = page.locator("table.keys tbody tr").filter({ hasText: chosen[0]! });
    expect(await old.locator(".rotation-rotated").textContent()).toBe("rotated");
    expect(await old.locator(".rotation-rotated + .detail").textContent()).toContain(`successor ${successor.id}`);
  });

  it("asks for the rotation of every active key of the agent; a reload repeats nothing", async () => {
    // The agent's 40 keys and the successor, less the 3 already asked for.
    await page.getByRole("button", { name: "Request rotation of every active key of Asha Rao (#1)" }).click();
    await page.waitForURL(`${server.url}/dashboard?agent=1&requested=38`);
    expect(await progress()).toBe("Rotation: 40 due, 1 rotated, 0 rolled instead.");
    expect(await page.locator('table.keys tbody input[type="checkbox"]').count()).toBe(0);
    await page.reload();
    expect(await rotationRequests()).toBe(41);
    await expectNoSeriousViolations(page, "an agent's keys, all due or rotated");
    expect(ui.problems).toEqual([]);
  });
});
