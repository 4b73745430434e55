// The dashboard's forms never repeat a change (docs/specification.md section 9, "The dashboard's
// forms"), in a real headless Chromium against a real `wrangler dev`: an administrator makes a key,
// reloads the page that shows its secret (the browser sends the POST again), goes Back to that
// page and sends it again, rolls and reloads, revokes and reloads. One key made, one roll, one
// revoke; each secret reaches the browser once; axe finds nothing serious on the pages shown.
import type { Page, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./helpers/axe.ts";
import { SKIP_BROWSER_TESTS } from "./helpers/browser.ts";
import { closeDashboard, type Dashboard, loaded, logIn, openDashboard, type Server } from "./helpers/dashboard.ts";

const SECRET = /^sk_test_[0-9A-Za-z]{43}$/;
const NAME = "Reloaded till";
/** What a page's body is taken to be when the browser could no longer give it: a test failure. */
const UNREAD = "(unread)";
const ALREADY_SENT = "That form had already been sent, so it was not sent again: nothing changed.";

describe.skipIf(SKIP_BROWSER_TESTS)("the dashboard's forms in Chromium, reloaded and sent again", () => {
  let ui: Dashboard;
  let server: Server;
  let page: Page;
  /** The body of every page the browser was sent in this test (redirects have none), in order. */
  let bodies: Promise<string>[] = [];
  /** The bodies of the pages of the tests before this one. */
  const earlier: string[] = [];
  /** The method and address of every document request, in order. */
  const requests: string[] = [];

  /** How many of the pages that this test was sent carry the text; with `earlier`, of every test's. */
  async function pagesWith(text: string, also: string[] = []): Promise<number> {
    const read = await Promise.all(bodies);
    expect(read.filter((body) => body === UNREAD)).toEqual([]);
    return [...also, ...read].filter((body) => body.includes(text)).length;
  }

  /**
   * Every step that may take the tab to another page goes through here. Chromium lets go of a page's
   * body once the tab navigates away, so the reads of the pages shown so far finish first: a body
   * read too late would count as a page without the secret.
   */
  async function navigate<T>(step: () => Promise<T>): Promise<T> {
    await Promise.all(bodies);
    return step();
  }

  const secretField = () => page.getByLabel("Secret of the new key");
  const notice = () => page.getByRole("status").filter({ hasText: /\S/ });

  function keyRow(action: "Roll" | "Revoke") {
    return page
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: NAME, exact: true }) })
      .filter({ has: page.getByRole("button", { name: new RegExp(`^${action} key`) }) });
  }

  /** Reloads; after a POST's answer the browser sends the POST again (its resubmit, accepted). */
  async function reload(): Promise<void> {
    await navigate(() => page.reload());
    await loaded(page.getByRole("heading", { name: "API keys", level: 1 }));
  }

  beforeAll(async () => {
    ui = await openDashboard({ viewport: { width: 1180, height: 820 } });
    ({ server, page } = ui);
    // A reload of a POST's answer asks to send the form again: accepted, as the test means to.
    page.on("dialog", (d) => void d.accept());
    page.on("request", (r) => {
      if (r.resourceType() === "document")
        requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    });
    page.on("response", (r: Response) => {
      if (r.request().resourceType() !== "document") return;
      bodies.push(r.status() >= 300 && r.status() < 400 ? Promise.resolve("") : r.text().catch(() => UNREAD));
    });
  });

  // Each test counts the pages that it was sent: a body lost in one test fails that test only.
  afterEach(async () => {
    earlier.push(...(await Promise.all(bodies)));
    bodies = [];
  });

  afterAll(() => closeDashboard(ui));

  it("logs in", async () => {
    await logIn(page, server.url, ui.adminToken);
    // POST/Redirect/GET: the logged-in page is a GET of /dashboard.
    expect(page.url()).toBe(`${server.url}/dashboard`);
    // No key exists yet, so the sign-in pages carry no secret and no test counts them.
  });

  let first: string;

  it("makes a key; reloading the page that shows its secret makes no other key and shows the secret no more", async () => {
    await page.getByLabel("Name", { exact: true }).fill(NAME);
    await navigate(() => page.getByRole("button", { name: "Make key" }).click());
    // The field shows while the rest of the page may still be arriving: its address and axe come next.
    await loaded(secretField());
    first = await secretField().inputValue();
    expect(first).toMatch(SECRET);
    expect(page.url()).toBe(`${server.url}/dashboard/keys`);
    await expectNoSeriousViolations(page, "the page that shows a new key's secret");

    await reload();
    expect(page.url()).toBe(`${server.url}/dashboard?notice=already-sent`);
    expect(await notice().textContent()).toMatch(new RegExp(`^${ALREADY_SENT}`));
    expect(await secretField().count()).toBe(0);
    expect(await page.content()).not.toContain(first);
    await expectNoSeriousViolations(page, "the key list after a form was sent again");

    expect((await ui.admin("/admin/keys")).map((k: any) => k.name)).toEqual([NAME]);
    expect(await pagesWith(first)).toBe(1);
  });

  it("going Back to the answer that showed the secret and sending it again changes nothing", async () => {
    // A fresh answer in the history: make a second key, then leave its page.
    await page.getByLabel("Name", { exact: true }).fill("Back and again");
    await navigate(() => page.getByRole("button", { name: "Make key" }).click());
    const second = await secretField().inputValue();
    expect(second).toMatch(SECRET);
    await navigate(() => page.goto(`${server.url}/dashboard`));
    // The answer is not kept (no-store): Chromium shows "Confirm Form Resubmission" instead of it...
    await expect(navigate(() => page.goBack())).rejects.toThrow(/ERR_CACHE_MISS/);
    await loaded(page.getByText("Confirm Form Resubmission"));
    expect(await page.content()).not.toContain(second);
    // ... and sends the form again on reload.
    const before = requests.length;
    await reload();
    expect(requests.slice(before)).toEqual(["POST /dashboard/keys", "GET /dashboard?notice=already-sent"]);
    expect(await notice().textContent()).toMatch(new RegExp(`^${ALREADY_SENT}`));
    expect(await secretField().count()).toBe(0);

    expect((await ui.admin("/admin/keys")).map((k: any) => k.name)).toEqual([NAME, "Back and again"]);
    expect(await pagesWith(second)).toBe(1);
  });

  let rolled: string;

  it("rolls the key; reloading rolls nothing more", async () => {
    await keyRow("Roll")
      .getByLabel(/^Old key stops/)
      .selectOption({ label: "now" });
    await navigate(() =>
      keyRow("Roll")
        .getByRole("button", { name: /^Roll key/ })
        .click(),
    );
    await loaded(page.getByRole("heading", { name: /copy it now/ }));
    rolled = await secretField().inputValue();
    expect(rolled).toMatch(SECRET);
    expect(rolled).not.toBe(first);

    await reload();
    expect(page.url()).toBe(`${server.url}/dashboard?notice=already-sent`);
    expect(await secretField().count()).toBe(0);
    expect(await keyRow("Roll").count()).toBe(1);

    const keys = (await ui.admin("/admin/keys")).filter((k: any) => k.name === NAME);
    expect(keys.map((k: any) => [k.status, k.replaces === null])).toEqual([
      ["expired", true],
      ["active", false],
    ]);
    expect(await pagesWith(rolled)).toBe(1);
  });

  it("revokes the key with a 303 to the list; reloading that list revokes nothing more", async () => {
    await navigate(() =>
      keyRow("Revoke")
        .getByRole("button", { name: /^Revoke key/ })
        .click(),
    );
    await loaded(notice().filter({ hasText: "is revoked" }));
    const [, fresh] = (await ui.admin("/admin/keys")).filter((k: any) => k.name === NAME);
    expect(page.url()).toBe(`${server.url}/dashboard?revoked=${fresh.id}`);
    const revokedAt = fresh.revoked_at;
    expect(revokedAt).not.toBeNull();

    const before = requests.length;
    await reload();
    expect(requests.slice(before)).toEqual([`GET /dashboard?revoked=${fresh.id}`]);
    expect(await notice().textContent()).toMatch(new RegExp(`^Key “${NAME}” \\(sk_test_.{4}…\\) is revoked\\.`));
    await expectNoSeriousViolations(page, "the key list after a revocation");
    expect((await ui.admin("/admin/keys")).find((k: any) => k.id === fresh.id).revoked_at).toBe(revokedAt);
  });

  it("the audit log has one create, one roll and one revoke of the key, and no secret was sent twice", async () => {
    const entries = (await ui.admin("/admin/audit")).filter((e: any) => e.key_name === NAME);
    expect(entries.map((e: any) => [e.action, e.actor])).toEqual([
      ["revoke", "dashboard"],
      ["roll", "dashboard"],
      ["create", "dashboard"],
    ]);
    // The panel on the page says the same.
    const panel = page.getByRole("region", { name: "Audit log", exact: true });
    const actions = await panel
      .locator("tbody tr")
      .filter({ has: page.getByRole("cell", { name: NAME, exact: true }) })
      .locator("td:nth-of-type(2)")
      .allTextContents();
    expect(actions).toEqual(["revoke", "roll", "create"]);
    for (const secret of [first, rolled]) expect(await pagesWith(secret, earlier)).toBe(1);
    expect(ui.problems).toEqual([]);
  });
});
