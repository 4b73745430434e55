// The key dashboard in a real headless Chromium or Chrome (found by ./helpers/browser.ts, never a
// download) against a real `wrangler dev`: an administrator logs in, makes a key, uses it, rolls it
// and revokes it, by typing and clicking as a person would; makes a read-only key bound to a sales
// agent found through the picker by keyboard, sees its usage and the audit panel; axe-core checks
// the login page, the make-key form, the key list and the audit panel. Makes an enrollment code and
// reads its QR code back. Takes a screenshot of the logged-in page; with UPDATE_SCREENSHOT=1 it replaces docs/dashboard.png (docs/keys.md's picture),
// else a temp file.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeEnrollmentCode } from "@order-lookup/client";
import { expectNoSeriousViolations } from "./helpers/axe.ts";
import { readQrCode } from "./helpers/qr.ts";
import { SKIP_BROWSER_TESTS } from "./helpers/browser.ts";
import { closeDashboard, type Dashboard, loaded, openDashboard, type Server, submit } from "./helpers/dashboard.ts";

const SCREENSHOT = process.env.UPDATE_SCREENSHOT
  ? join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "dashboard.png")
  : join(tmpdir(), "olk-dashboard.png");
const SECRET = /^sk_test_[0-9A-Za-z]{43}$/;
/** The isolate trusts a key it read for 10 s; allow generously for a loaded machine. */
const REJECTION_WAIT_MS = 60_000;
/** The sales agents of this server's D1, for the agent picker. */
const AGENTS_SQL =
  "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES " +
  "(1, 'Asha', 'Rao', '9876543210'), (2, 'Vikram', 'Shetty', '9876500002'), (3, 'Meena', 'Iyer', '9876500003')";

async function apiStatus(server: Server, secret: string): Promise<number> {
  const res = await fetch(`${server.url}/api/customers`, { headers: { Authorization: `Bearer ${secret}` } });
  await res.arrayBuffer();
  return res.status;
}

/** Polls the API until the key gets `want` (or the wait is over); returns the last status seen. */
async function apiStatusWithin(server: Server, secret: string, want: number): Promise<number> {
  const deadline = Date.now() + REJECTION_WAIT_MS;
  let status = await apiStatus(server, secret);
  while (status !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    status = await apiStatus(server, secret);
  }
  return status;
}

/** The table row of the key with this name that still offers the given action. */
function keyRow(page: Page, name: string, action: "Roll" | "Revoke") {
  return page
    .locator("tbody tr")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) })
    .filter({ has: page.getByRole("button", { name: new RegExp(`^${action} key`) }) });
}

async function makeKey(page: Page, name: string, mode: "test" | "live", expires: string): Promise<string> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("radio", { name: mode, exact: true }).check();
  await page.getByLabel("Expires").selectOption({ label: expires });
  await page.getByRole("button", { name: "Make key" }).click();
  // The click waits for the new page to begin, not to load: the callers read the whole page next (axe).
  await loaded(page.getByLabel("Secret of the new key"));
  return page.getByLabel("Secret of the new key").inputValue();
}

describe.skipIf(SKIP_BROWSER_TESTS)("the key dashboard in Chromium", () => {
  let ui: Dashboard;
  let server: Server;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // USAGE_FLUSH_SECONDS 0: a key's use is written right after each request, so a reload shows it.
    ui = await openDashboard({
      vars: { USAGE_FLUSH_SECONDS: "0" },
      sql: AGENTS_SQL,
      viewport: { width: 1180, height: 820 },
      prepare: (made, started) => made.grantPermissions(["clipboard-read", "clipboard-write"], { origin: started.url }),
    });
    ({ server, context, page } = ui);
  });

  afterAll(() => closeDashboard(ui));

  it("before login: a heading and the administrator token field, nothing else", async () => {
    await page.goto(`${server.url}/dashboard`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("API key dashboard");
    const field = page.getByLabel("Administrator token");
    expect(await field.getAttribute("type")).toBe("password");
    expect(await page.locator("input, select, textarea").count()).toBe(1);
    expect(await page.getByRole("button").allTextContents()).toEqual(["Log in"]);
    // The field has the focus, so the token can be typed at once (autofocus applies at a rendering
    // update, which can come after the load event that goto waits for).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 10_000 }).toBe("token");
    await expectNoSeriousViolations(page, "the login page");
  });

  it("a wrong token shows an error and lets nobody in", async () => {
    await page.keyboard.type("this-is-not-the-admin-token");
    await page.keyboard.press("Enter");
    await loaded(page.getByRole("alert"));
    expect(await page.getByRole("alert").textContent()).toBe(
      "That is not the administrator token. Nobody was logged in.",
    );
    expect(await context.cookies()).toEqual([]);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("API key dashboard");
  });

  it("the right token logs in with a Secure, HttpOnly, SameSite=Strict cookie", async () => {
    await page.getByLabel("Administrator token").fill(ui.adminToken);
    await page.getByRole("button", { name: "Log in" }).click();
    await loaded(page.getByRole("heading", { name: "API keys", level: 1 }));
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    const [cookie] = cookies;
    expect(cookie).toMatchObject({
      name: "__Host-olk_admin",
      path: "/",
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
    });
    const hoursLeft = (cookie!.expires * 1000 - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(7.9);
    expect(hoursLeft).toBeLessThanOrEqual(8);
    // The session survives a reload: Chromium keeps and sends the Secure cookie on http://127.0.0.1.
    await page.goto(`${server.url}/dashboard`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");
    expect(await page.getByText("No keys yet.").count()).toBe(1);
  });

  it("focus is visible when moving through the page with the keyboard", async () => {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { text: el.textContent, outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(focused).toEqual({ text: "Log out", outline: "solid", width: "3px" });
  });

  let first: string;
  let second: string;

  it("makes a key, shows its secret once with a copy button, and the key works on the API", async () => {
    first = await makeKey(page, "E2E integration", "test", "in 7 days");
    expect(first).toMatch(SECRET);
    await expectNoSeriousViolations(page, "the page that shows a new key's secret");
    await page.getByRole("button", { name: "Copy key" }).click();
    await loaded(page.getByText("Copied to the clipboard."));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    expect(await apiStatus(server, first)).toBe(200);

    await page.goto(`${server.url}/dashboard`);
    const row = keyRow(page, "E2E integration", "Roll");
    expect(await row.count()).toBe(1);
    expect(await row.locator("td").nth(3).innerText()).toBe("test\nread, write");
    expect(await row.locator("td code").textContent()).toBe(`${first.slice(0, 12)}…`);
    expect(await row.locator(".status").textContent()).toBe("active");
    expect(await page.content()).not.toContain(first);
  });

  it("rolls the key at once: the new key works, the old one is rejected", async () => {
    const row = keyRow(page, "E2E integration", "Roll");
    await row.getByLabel(/^Old key stops/).selectOption({ label: "now" });
    await row.getByRole("button", { name: /^Roll key/ }).click();
    await loaded(page.getByRole("heading", { name: /copy it now/ }));
    second = await page.getByLabel("Secret of the new key").inputValue();
    expect(second).toMatch(SECRET);
    expect(second).not.toBe(first);
    expect(await page.getByText(/which no longer works/).count()).toBe(1);

    expect(await apiStatus(server, second)).toBe(200);
    expect(await apiStatusWithin(server, first, 401)).toBe(401);
  });

  it("revokes the key: the page says so and the API rejects it", async () => {
    await keyRow(page, "E2E integration", "Revoke")
      .getByRole("button", { name: /^Revoke key/ })
      .click();
    const notice = page.getByRole("status").filter({ hasText: "is revoked" });
    await loaded(notice);
    expect(await notice.textContent()).toMatch(
      /^Key “E2E integration” \(sk_test_.{4}…\) is revoked\. It stops working everywhere within 10 seconds locally/,
    );
    expect(await apiStatusWithin(server, second, 401)).toBe(401);
    const statuses = await page
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: "E2E integration", exact: true }) })
      .locator(".status")
      .allTextContents();
    expect(statuses.sort()).toEqual(["expired", "revoked"]);
  });

  let fieldApp: string;

  it("makes a read-only key bound to an agent found through the search, all by keyboard", async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel("Find a sales agent to bind the key to").focus();
    await page.keyboard.type("9876543");
    await page.keyboard.press("Enter");
    await loaded(page.getByText("1 match for “9876543”."));
    // The first match has the focus after a search: Space picks it.
    const asha = page.getByRole("radio", { name: "Asha Rao (9876543210), #1" });
    await expect.poll(() => asha.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true);
    await page.keyboard.press("Space");
    expect(await asha.isChecked()).toBe(true);
    await expectNoSeriousViolations(page, "the make-key form with an agent search's matches");
    // Back through the form: untick write, leave read, then the name.
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("write");
    await page.keyboard.press("Space");
    for (const _ of [1, 2, 3, 4]) await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("key-name");
    await page.keyboard.type("Field app");
    // Enter in the form searches (its first button: nothing is made by a stray Enter), keeping what was typed.
    // The page before shows the same matches: the new one's load is waited for.
    await submit(page, () => page.keyboard.press("Enter"));
    await loaded(page.getByText("1 match for “9876543”."));
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Field app");
    await page.getByRole("radio", { name: "Asha Rao (9876543210), #1" }).press("Space");
    await page.getByRole("button", { name: "Make key" }).press("Enter");
    await loaded(page.getByRole("heading", { name: /copy it now/ }));
    fieldApp = await page.getByLabel("Secret of the new key").inputValue();
    expect(fieldApp).toMatch(SECRET);

    await page.goto(`${server.url}/dashboard`);
    const row = keyRow(page, "Field app", "Roll");
    const cells = await row.locator("td").allInnerTexts();
    expect(cells[1]!.startsWith(`${fieldApp.slice(0, 12)}…`)).toBe(true);
    expect([cells[2], cells[3], cells[5], await row.locator(".figures").textContent()]).toEqual([
      "Asha Rao\n#1",
      "test\nread",
      "never",
      "24 h: 0, 7 days: 0",
    ]);
    await expectNoSeriousViolations(page, "the key list with a key");
  });

  it("shows the key's use after a reload: last used, 24 h, 7 days and the chart", async () => {
    for (let i = 0; i < 3; i++) expect(await apiStatus(server, fieldApp)).toBe(200);
    const row = keyRow(page, "Field app", "Roll");
    // Written after each response (waitUntil): a reload or two may come first.
    const deadline = Date.now() + 30_000;
    await page.goto(`${server.url}/dashboard`);
    let figures = await row.locator(".figures").textContent();
    while (figures !== "24 h: 3, 7 days: 3" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      await page.goto(`${server.url}/dashboard`);
      figures = await row.locator(".figures").textContent();
    }
    expect(figures).toBe("24 h: 3, 7 days: 3");
    expect(await row.locator("td").nth(5).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    const chart = row.getByRole("img");
    const today = new Date().toISOString().slice(0, 10);
    expect(await chart.getAttribute("aria-label")).toMatch(
      new RegExp(`: 3 requests in total, most on ${today} \\(3\\)$`),
    );
    expect(await chart.locator("rect").count()).toBe(30);
    expect(await chart.locator("rect").last().locator("title").textContent()).toBe(`${today}: 3 requests`);
  });

  it("rolls and revokes it: the audit panel shows each change with this session", async () => {
    const row = keyRow(page, "Field app", "Roll");
    await row.getByLabel(/^Old key stops/).selectOption({ label: "now" });
    await row.getByRole("button", { name: /^Roll key/ }).click();
    await loaded(page.getByRole("heading", { name: /copy it now/ }));
    await keyRow(page, "Field app", "Revoke")
      .getByRole("button", { name: /^Revoke key/ })
      .click();
    await loaded(page.getByRole("status").filter({ hasText: "is revoked" }));
    // The new key kept the scopes and the agent.
    const rows = page
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: "Field app", exact: true }) });
    expect(await rows.locator(".scopes").allTextContents()).toEqual(["read", "read"]);
    // The audit log names a session by the SHA-256 of the id that its cookie carries.
    const sessionId = createHash("sha256")
      .update((await context.cookies())[0]!.value.split(".")[0]!)
      .digest("base64url");
    const panel = page.getByRole("region", { name: "Audit log", exact: true });
    const entries = await panel
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.slice(0, 3).map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent).slice(1)),
      );
    const who = ["Field app", "test", "dashboard", `${sessionId.slice(0, 8)}…`];
    // Action, key, new key, enrollment code, then who: the code column is empty for a key's own change.
    expect(entries.map((e) => [e[0], e[3], ...e.slice(4)])).toEqual([
      ["revoke", "–", ...who],
      ["roll", "–", ...who],
      ["create", "–", ...who],
    ]);
    expect(entries[1]![2]).toBe(entries[0]![1]);
    await expectNoSeriousViolations(page, "the audit panel");
  });

  it("saves a screenshot of the logged-in page", async () => {
    await makeKey(page, "Mobile app", "test", "never");
    const portal = await makeKey(page, "Partner portal", "test", "in 90 days");
    for (let i = 0; i < 5; i++) expect(await apiStatus(server, portal)).toBe(200);
    await makeKey(page, "Nightly reports", "test", "never");
    await page.goto(`${server.url}/dashboard`);
    const row = keyRow(page, "Nightly reports", "Roll");
    await row.getByLabel(/^Old key stops/).selectOption({ label: "in 24 hours" });
    await row.getByRole("button", { name: /^Roll key/ }).click();
    await loaded(page.getByRole("heading", { name: /copy it now/ }));
    // The page as it is after a reload: no secret in the picture.
    await page.goto(`${server.url}/dashboard`);
    expect(await page.locator(".status").allTextContents()).toEqual(
      expect.arrayContaining(["active", "expiring", "expired", "revoked"]),
    );
    // A desktop administrator's width: the key table fits without scrolling sideways.
    await page.setViewportSize({ width: 1480, height: 900 });
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await expectNoSeriousViolations(page, "the key list, with keys of every status");
    expect(ui.problems).toEqual([]);
  });

  it("makes an enrollment code for an agent: its QR code holds the enrollment link, a reload shows it no more", async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole("link", { name: "Enrollment codes for phones" }).click();
    await loaded(page.getByRole("heading", { name: "Enrollment codes", level: 1 }));
    await page.getByLabel("Find a sales agent to bind the key to").fill("Vikram");
    await page.getByRole("button", { name: "Find agents" }).click();
    await page.getByRole("radio", { name: /^Vikram Shetty/ }).check();
    await page.getByRole("checkbox", { name: /^write/ }).uncheck();
    await page.getByRole("button", { name: "Make code" }).click();
    await loaded(page.locator("#new-code"));
    const code = (await page.locator("#new-code").textContent())!;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(page.url()).toBe(`${server.url}/dashboard/enrollments`);
    await expectNoSeriousViolations(page, "the page that shows a new enrollment code and its QR code");

    // The QR code read back as a phone's camera would.
    expect(await readQrCode(page.locator("svg.qr"))).toBe(`${server.url}/enroll#${code}`);

    // Reloading sends the form again: nothing is made, and the code is shown no more.
    page.once("dialog", (d) => void d.accept());
    await page.reload();
    await loaded(page.getByRole("heading", { name: "Enrollment codes", level: 1 }));
    expect(page.url()).toBe(`${server.url}/dashboard/enrollments?notice=already-sent`);
    expect(await page.content()).not.toContain(code);
    expect(await page.locator("svg.qr").count()).toBe(0);
    await expectNoSeriousViolations(page, "the enrollment codes list");

    // The phone's exchange: a read-only key for the agent, which works on the API.
    const { status, key } = await exchangeEnrollmentCode(server.url, code.toLowerCase(), "Field phone");
    expect({ status, name: key.name, agent: key.agent_id, scopes: key.scopes }).toEqual({
      status: 201,
      name: "Vikram Shetty (Field phone)",
      agent: 2,
      scopes: ["read"],
    });
    expect(await apiStatus(server, key.secret)).toBe(200);
    await page.reload();
    await expect(page.locator("tbody .status").first().textContent()).resolves.toBe("used");
    expect(ui.problems).toEqual([]);
  });

  it("logs out, and a copy of the cookie taken before stops working at once", async () => {
    const [kept] = await context.cookies();
    const copy = `${kept!.name}=${kept!.value}`;
    expect((await fetch(`${server.url}/admin/keys`, { headers: { Cookie: copy } })).status).toBe(200);
    await page.getByRole("button", { name: "Log out" }).click();
    await loaded(page.getByLabel("Administrator token"));
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${server.url}/dashboard`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("API key dashboard");

    const again = await fetch(`${server.url}/dashboard`, { headers: { Cookie: copy } });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("<h1>API key dashboard</h1>");
    const api = await fetch(`${server.url}/admin/keys`, { headers: { Cookie: copy } });
    expect(api.status).toBe(401);
  });

  it("works on http://localhost too: Chromium keeps the Secure cookie there as well", async () => {
    const other = await ui.browser.newContext();
    try {
      const tab = await other.newPage();
      await tab.goto(`http://localhost:${server.port}/dashboard`);
      await tab.getByLabel("Administrator token").fill(ui.adminToken);
      await tab.getByRole("button", { name: "Log in" }).click();
      await loaded(tab.getByRole("heading", { name: "API keys", level: 1 }));
      expect((await other.cookies()).map((c) => [c.name, c.domain, c.secure])).toEqual([
        ["__Host-olk_admin", "localhost", true],
      ]);
      await tab.reload();
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");
    } finally {
      await other.close();
    }
  });
});
