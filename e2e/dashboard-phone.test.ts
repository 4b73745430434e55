// The dashboard on a phone, in a real headless Chromium against a real `wrangler dev`: every page (the
// sign-in, the keys with a new secret and without, the enrollment codes with a new code and without)
// at 360, 390 and 412 px wide has nothing wider than the screen, and each key's and code's name, status
// and actions are readable (not squeezed to a letter a line) and on screen; the audit table fits at
// 1280 px; axe finds nothing serious at any of these widths.
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./helpers/axe.ts";
import { SKIP_BROWSER_TESTS } from "./helpers/browser.ts";
import { closeDashboard, type Dashboard, loaded, logIn, openDashboard } from "./helpers/dashboard.ts";

const WIDTHS = [360, 390, 412];
const SHOTS = process.env.DASHBOARD_SHOTS; // a folder: screenshots of each page at each width, to look at

const AGENTS_SQL =
  "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES " +
  "(1, 'Asha', 'Rao', '9876543210'), (7, 'Venkatanarasimharajuvaripeta', 'Subramanyam', '9876500007')";

interface Fit {
  /** How far the page scrolls sideways. */
  page: number;
  /** Elements that reach past either edge of the screen, as "tag.class: left..right". */
  outside: string[];
  /** Readable parts that are narrower than 6 characters of text (a name squeezed to a letter a line). */
  squeezed: string[];
}

/** What does not fit the screen: `readable` selects the parts that must keep a readable width. */
async function fit(page: Page, readable: string): Promise<Fit> {
  return page.evaluate((readableSelector) => {
    const width = document.documentElement.clientWidth;
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.split(" ").join(".")}` : ""} "${(el.textContent ?? "").trim().slice(0, 30)}": ${Math.round(r.left)}..${Math.round(r.right)}`;
    };
    const visible = (el: Element) => {
      if (el.closest(".vh")) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const outside = [...document.body.querySelectorAll("*")]
      .filter((el) => visible(el) && !(el instanceof SVGElement && !(el instanceof SVGSVGElement)))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.right > width + 0.5 || r.left < -0.5;
      })
      .map(describe);
    const em = parseFloat(getComputedStyle(document.body).fontSize);
    const squeezed = [...document.querySelectorAll(readableSelector)]
      .filter((el) => visible(el) && el.getBoundingClientRect().width < 6 * em * 0.5)
      .map(describe);
    return { page: document.documentElement.scrollWidth - width, outside, squeezed };
  }, readable);
}

// A key's or code's name, status and action buttons.
const READABLE = "tbody th, .status, tbody button, tbody select";

async function expectFits(page: Page, what: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/${what.replace(/\W+/g, "-")}-${width}.png`, fullPage: true });
      const rows = page.locator("tbody tr");
      for (let i = 0; i < Math.min(await rows.count(), 6); i++)
        await rows.nth(i).screenshot({ path: `${SHOTS}/${what.replace(/\W+/g, "-")}-${width}-row${i}.png` });
      await page.screenshot({ path: `${SHOTS}/${what.replace(/\W+/g, "-")}-${width}-top.png` });
    }
    expect({ what, width, ...(await fit(page, READABLE)) }).toEqual({
      what,
      width,
      page: 0,
      outside: [],
      squeezed: [],
    });
    await expectNoSeriousViolations(page, `${what} at ${width} px`);
  }
}

describe.skipIf(SKIP_BROWSER_TESTS)("the dashboard on a phone", () => {
  let ui: Dashboard;
  let page: Page;

  beforeAll(async () => {
    ui = await openDashboard({ sql: AGENTS_SQL, viewport: { width: 390, height: 800 } });
    page = ui.page;
    // Keys of every kind: bound to an agent with a long name, expiring, due for rotation, rolled, revoked.
    const phone = await ui.admin("/admin/keys", {
      body: { name: "Venkatanarasimharajuvaripeta's phone", mode: "test", agent_id: 7, scopes: ["read"] },
    });
    await ui.admin("/admin/keys", { body: { name: "Warehouse server", mode: "test", expires_in: 86_400 * 30 } });
    const rolled = await ui.admin("/admin/keys", { body: { name: "Old tablet", mode: "test", agent_id: 1 } });
    await ui.admin(`/admin/keys/${rolled.id}/roll`, { body: {} });
    const revoked = await ui.admin("/admin/keys", { body: { name: "Lost phone", mode: "test" } });
    await change(`/admin/keys/${revoked.id}/revoke`);
    await change("/admin/keys/rotation", { ids: [phone.id] });
    await ui.admin("/admin/enrollments", { body: { agent_id: 7, mode: "test", name: "Field phone of Venkat" } });
    const revokedCode = await ui.admin("/admin/enrollments", { body: { agent_id: 1, mode: "test" } });
    await change(`/admin/enrollments/${revokedCode.id}/revoke`);
  });

  afterAll(() => closeDashboard(ui));

  /** A change through the admin API that answers 200 (a roll, a revoke, a rotation request). */
  async function change(path: string, body: unknown = {}): Promise<void> {
    const res = await fetch(`${ui.server.url}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ui.adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
  }

  it("the sign-in page fits", async () => {
    await page.goto(`${ui.server.url}/dashboard`);
    await expectFits(page, "sign-in");
  });

  it("the keys page fits, each key's name, status and actions readable", async () => {
    await logIn(page, ui.server.url, ui.adminToken);
    expect(await page.locator("table.keys tbody tr").count()).toBe(5);
    await expectFits(page, "keys");
  });

  it("the page with a new key's secret fits", async () => {
    await page.getByLabel("Name", { exact: true }).fill("Counter tablet");
    await page.getByRole("button", { name: "Make key" }).click();
    await loaded(page.getByRole("heading", { name: /copy it now/ }));
    await expectFits(page, "new key");
  });

  it("the enrollment codes page fits, each code's status and Revoke on screen", async () => {
    await page.goto(`${ui.server.url}/dashboard/enrollments`);
    await loaded(page.getByRole("heading", { name: "Enrollment codes", level: 1 }));
    await expectFits(page, "enrollment codes");
  });

  it("the page with a new enrollment code and its QR code fits", async () => {
    await page.getByLabel("Find a sales agent to bind the key to").fill("Asha");
    await page.getByRole("button", { name: "Find agents" }).click();
    await page.getByRole("radio", { name: /^Asha Rao/ }).check();
    await page.getByRole("button", { name: "Make code" }).click();
    await loaded(page.locator("#new-code"));
    await expectFits(page, "new enrollment code");
  });

  it("the audit table fits at 1280 px", async () => {
    await page.goto(`${ui.server.url}/dashboard`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const audit = await page.evaluate(() => {
      const wrap = document.querySelector(".table-wrap:has(table.audit)")!;
      return { table: wrap.scrollWidth - wrap.clientWidth, page: document.documentElement.scrollWidth - 1280 };
    });
    expect(audit).toEqual({ table: 0, page: 0 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/audit-1280.png`, fullPage: true });
    await expectNoSeriousViolations(page, "the keys page at 1280 px");
  });
});
