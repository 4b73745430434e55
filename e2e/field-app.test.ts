// The field app (docs/specification.md section 10) in a real Chromium against a real `wrangler dev`
// with the demo data, as a sales agent would use it: enrolled from the dashboard's QR code, the book
// offline, shops saved offline and sent exactly once through lost answers, a closed page, a rotation,
// a revoked key, a 410 and refusals. One server, one browser and one agent's phone for the whole file:
// each test goes on from where the one before left the phone.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform } from "../scripts/lib/local.ts";
import { PAGE_ROWS } from "../app/src/search.ts";
import { expectNoSeriousViolations } from "./helpers/axe.ts";
import { launchProfile, SKIP_BROWSER_TESTS } from "./helpers/browser.ts";
import { loaded, logIn } from "./helpers/dashboard.ts";
import { type Proxy, startProxy } from "./helpers/proxy.ts";
import { type DevServer, serveState } from "./helpers/server.ts";
import { readQrCode } from "./helpers/qr.ts";
import { migratedStateDir } from "./helpers/state.ts";

const KEY_REFUSED = "This phone's key no longer works: ask the office for a new code";
const STORAGE_FULL = "The phone's storage is full: what is stored is kept.";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface DemoCustomer {
  id: number;
  company_name: string;
  contact_person_name: string;
  contactperson_number: string;
  salesagent_id: number | null;
  address: { area_id: number; postalcode_id: number } | null;
}
interface Demo {
  customers: DemoCustomer[];
  orders: { id: number; order_no: string; customer_id: number }[];
  sales_agents: { id: number; first_name: string; last_name: string }[];
  areas: { id: number; name: string }[];
  postal_codes: { id: number; code: string }[];
}
const demo = JSON.parse(readFileSync("data/demo.json", "utf8")) as Demo;
/** The agent with the most customers: the phone's agent. */
const agent = (() => {
  const counts = new Map<number, number>();
  for (const c of demo.customers)
    if (c.salesagent_id) counts.set(c.salesagent_id, (counts.get(c.salesagent_id) ?? 0) + 1);
  const [id] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  return demo.sales_agents.find((a) => a.id === id)!;
})();
const book = demo.customers.filter((c) => c.salesagent_id === agent.id);
const withOrders = book.find((c) => demo.orders.some((o) => o.customer_id === c.id) && c.address)!;
const area = demo.areas.find((a) => a.id === withOrders.address!.area_id)!;
const pincode = demo.postal_codes.find((p) => p.id === withOrders.address!.postalcode_id)!.code;
/** Another agent's customer: its number is taken (409). */
const taken = demo.customers.find((c) => c.salesagent_id !== agent.id && c.salesagent_id !== null)!;

/** Mobile numbers that no demo customer has. */
const numbers = (() => {
  const used = new Set(demo.customers.map((c) => c.contactperson_number.replace(/\D/g, "").slice(-10)));
  const free: string[] = [];
  for (let n = 6_000_000_001; free.length < 20; n++) if (!used.has(String(n))) free.push(String(n));
  return free;
})();

const ADMIN_TOKEN = `e2e-admin-${randomBytes(18).toString("base64url")}`;
const dir = migratedStateDir("olk-app-");
let platform: Platform;
let server: DevServer;
/** The browser reaches the service through a pass-through proxy (./helpers/proxy.ts), at this origin. */
let proxy: Proxy;
let origin: string;
const profile = mkdtempSync(join(tmpdir(), "olk-app-profile-"));
let context: BrowserContext;
let page: Page;
const consoleLines: string[] = [];

async function admin(path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { data: unknown }).data;
}

async function openPage(): Promise<Page> {
  const p = await context.newPage();
  p.on("console", (m) => consoleLines.push(m.text()));
  p.on("pageerror", (e) => consoleLines.push(e.message));
  return p;
}

const customersList = (p: Page) => p.getByRole("list", { name: "Customers" });
const statusLine = (p: Page) => p.getByRole("region", { name: "Sync status" });
/** The count the app states of its list (which holds the first PAGE_ROWS matches): "39 customers, the first 30 shown". */
const listCount = (p: Page) => p.locator("#list-count");
const stated = (count: number) => new RegExp(`^${count} customers?(, the first ${PAGE_ROWS} shown)?$`);

/** Finds a name in the list by searching for it, as the agent would: how many items it shows of that name. */
async function found(p: Page, name: string): Promise<number> {
  const search = p.getByRole("searchbox", { name: "Search customers" });
  await search.fill(name);
  const names = await shown(p);
  await search.fill("");
  return names.filter((n) => n === name).length;
}

/** The names of the list's items shown now. */
async function shown(p: Page): Promise<string[]> {
  return customersList(p)
    .locator("li:not([hidden]) > span:first-child, li:not([hidden]) > button > span:first-child")
    .allTextContents();
}

/**
 * Waits until the status line says the book caught up and no run is under way, and the list has `count`
 * entries: stated by its count line, and the first PAGE_ROWS of them in it.
 */
async function caughtUp(p: Page, count: number): Promise<void> {
  await expect
    .poll(
      async () => ({
        items: await customersList(p).getByRole("listitem").count(),
        stated: await listCount(p).innerText(),
        status: await statusLine(p).innerText(),
      }),
      {
        timeout: 30_000,
      },
    )
    .toMatchObject({
      items: Math.min(count, PAGE_ROWS),
      stated: expect.stringMatching(stated(count)),
      status: expect.stringMatching(/caught up/),
    });
  await expect.poll(() => statusLine(p).innerText(), { timeout: 30_000 }).not.toMatch(/Sending and syncing/);
}

/** What IndexedDB holds under a meta key. */
function meta(p: Page, key: string): Promise<any> {
  return p.evaluate(
    (k) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("order-lookup-field-app");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("meta").objectStore("meta").get(k);
          get.onsuccess = () => {
            resolve(get.result);
            open.result.close();
          };
        };
      }),
    key,
  );
}

async function fillShop(
  p: Page,
  shop: { name: string; mobile: string; contact?: string; pin?: string },
  saved = true,
): Promise<void> {
  await p.getByRole("button", { name: "New shop" }).click();
  const form = p.getByRole("form", { name: "New shop" });
  await form.getByLabel("Company name").fill(shop.name);
  await form.getByLabel("Contact person's name").fill(shop.contact ?? "Test Contact");
  await form.getByLabel("Mobile number").fill(shop.mobile);
  await form.getByLabel("Address").fill("1 Test Road");
  await form.getByLabel("Area").selectOption({ label: area.name });
  await form.getByLabel("PIN code").fill(shop.pin ?? pincode);
  await form.getByRole("button", { name: "Save shop" }).click();
  if (!saved) return;
  await p.getByRole("searchbox", { name: "Search customers" }).fill("");
  await customersList(p).getByText(shop.name).first().waitFor();
}

/** Every record of the app's IndexedDB, by store (the meta store's by key). */
function stores(p: Page): Promise<Record<string, [IDBValidKey, unknown][]>> {
  return p.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("order-lookup-field-app");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction([...db.objectStoreNames]);
          const out: Record<string, [IDBValidKey, unknown][]> = {};
          for (const name of db.objectStoreNames) {
            const store = tx.objectStore(name);
            const keys = store.getAllKeys();
            const values = store.getAll();
            values.onsuccess = () => (out[name] = keys.result.map((k, i) => [k, values.result[i]]));
          }
          tx.oncomplete = () => {
            db.close();
            resolve(out);
          };
        };
      }),
  );
}

/** Another sales agent with customers: the phone is handed to them. */
const other = demo.sales_agents.find((a) => a.id !== agent.id && demo.customers.some((c) => c.salesagent_id === a.id))!;
const otherBook = demo.customers.filter((c) => c.salesagent_id === other.id);

/** A read key of no agent, for the test's own questions to the service (made in beforeAll). */
let readSecret: string;

/**
 * How many customers of the service have this mobile number (0 or 1: the number is unique), asked of the
 * running service over HTTP. Not through a second workerd on its state folder: that process's reads
 * hold the SQLite file, and the service's own writes meanwhile fail with SQLITE_BUSY (a 500 to the app,
 * which then leaves its shop for the next run).
 */
async function heldByService(mobile: string): Promise<number> {
  const res = await fetch(`${server.url}/api/orders?phone_number=${mobile}&count=1`, {
    headers: { Authorization: `Bearer ${readSecret}` },
  });
  await res.body?.cancel();
  expect([200, 404], `GET /api/orders for ${mobile}`).toContain(res.status);
  return res.status === 200 ? 1 : 0;
}

/** Polls heldByService gently: each poll is a request to the service the app is using too. */
const POLL = { timeout: 20_000, interval: 250 };

describe.skipIf(SKIP_BROWSER_TESTS)("the field app in Chromium", () => {
  beforeAll(async () => {
    // scripts/lib/local.ts reads PERSIST_DIR when it loads.
    process.env.PERSIST_DIR = dir;
    const { openPlatform } = await import("../scripts/lib/local.ts");
    const { importFile } = await import("../scripts/import/file.ts");
    platform = await openPlatform();
    await importFile("data/demo.json", platform.env);
    // A profile of the browser's own, not an incognito context: installability and persistent storage
    // are judged as on a phone.
    [server, context] = await Promise.all([
      serveState(dir, { ADMIN_TOKEN }),
      launchProfile(profile, { viewport: { width: 360, height: 740 } }),
    ]);
    proxy = await startProxy(server.url);
    origin = proxy.url;
    // Persistent storage granted, as a user's "Allow" would: the app must have asked for it. Through the
    // browser's own session (a page's would change how that page sees the network).
    const cdp = await context.browser()!.newBrowserCDPSession();
    readSecret = (await admin("/admin/keys", { name: "e2e reader", mode: "test", scopes: ["read"] })).secret;
    await cdp.send("Browser.grantPermissions", { permissions: ["durableStorage"], origin: origin });
    page = await openPage();
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await proxy?.close();
    rmSync(profile, { recursive: true, force: true });
    await server?.stop();
    await platform?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("enrolls from the dashboard's QR code with no typing, asks for persistent storage and syncs the whole book", async () => {
    const office = await context.newPage();
    await logIn(office, origin, ADMIN_TOKEN);
    await office.goto(`${origin}/dashboard/enrollments`);
    await office.getByLabel("Find a sales agent to bind the key to").fill(agent.first_name);
    await office.getByRole("button", { name: "Find agents" }).click();
    await office.getByRole("radio", { name: new RegExp(`^${agent.first_name} ${agent.last_name}`) }).check();
    await office.getByRole("button", { name: "Make code" }).click();
    await loaded(office.locator("svg.qr"));
    const link = (await readQrCode(office.locator("svg.qr")))!;
    await office.close();
    expect(link).toMatch(new RegExp(`^${origin}/enroll#[0-9A-Z-]{19}$`));

    await page.goto(link);
    await caughtUp(page, book.length);
    expect(page.url()).toBe(`${origin}/app/`);
    expect({
      asked: await meta(page, "persisted"),
      now: await page.evaluate(() => navigator.storage.persisted()),
    }).toEqual({
      asked: true,
      now: true,
    });
    expect(await statusLine(page).innerText()).not.toMatch(/may clear/);
    const key = await meta(page, "key");
    expect(key).toMatchObject({ agent_id: agent.id, secret: expect.stringMatching(/^sk_test_/) });

    // Installable: a manifest and a service worker that Chromium accepts.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    await cdp.detach();
    expect(installabilityErrors).toEqual([]);
    await expectNoSeriousViolations(page, "the book");
  });

  it("opens offline with the whole book; searches by part of a name, a spaced phone number and an area; shows a customer's orders", async () => {
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => listCount(page).innerText(), POLL).toMatch(stated(book.length));
    await expect.poll(() => statusLine(page).innerText(), POLL).toMatch(/^Offline/);
    // The whole book: every customer in the list (it fits in the first PAGE_ROWS).
    expect(book.length).toBeLessThanOrEqual(PAGE_ROWS);
    expect((await shown(page)).sort()).toEqual(book.map((c) => c.company_name).sort());
    const search = page.getByRole("searchbox", { name: "Search customers" });

    await search.fill(withOrders.company_name.slice(2, 9).toUpperCase());
    expect(await shown(page)).toContain(withOrders.company_name);
    const digits = withOrders.contactperson_number.replace(/\D/g, "").slice(-10);
    await search.fill(`${digits.slice(0, 5)} ${digits.slice(5)}`);
    expect(await shown(page)).toEqual([withOrders.company_name]);
    await search.fill(area.name.toLowerCase());
    const inArea = book.filter((c) => c.address?.area_id === area.id).map((c) => c.company_name);
    expect((await shown(page)).sort()).toEqual(inArea.sort());

    await search.fill(withOrders.company_name);
    await customersList(page)
      .getByRole("button", { name: new RegExp(withOrders.company_name) })
      .click();
    const orders = demo.orders.filter((o) => o.customer_id === withOrders.id);
    // The customer's screen reads the orders from IndexedDB after it opens: waited for.
    const ordersList = page.getByRole("list", { name: "Orders" }).getByRole("listitem");
    await expect.poll(() => ordersList.count(), { timeout: 10_000 }).toBe(orders.length);
    const listed = await ordersList.allTextContents();
    expect(listed).toHaveLength(orders.length);
    for (const o of orders) expect(listed.join("\n")).toContain(o.order_no);
    await expectNoSeriousViolations(page, "a customer");
    await page.getByRole("button", { name: "Back to the book" }).click();
    await search.fill("");
  });

  it("sends shops saved offline exactly once through a lost answer, a rotation and a page closed mid-send", async () => {
    const shops = [1, 2, 3].map((i) => ({ name: `Offline Shop ${i}`, mobile: numbers[i]! }));
    for (const shop of shops) await fillShop(page, shop);
    // The status line is written after the list, from IndexedDB: the shop can show before its count does.
    await expect.poll(() => statusLine(page).innerText(), POLL).toMatch(/3 shops waiting to be sent/);
    await expectNoSeriousViolations(page, "the book with shops waiting");
    const keyBefore = (await meta(page, "key")).id as string;

    let creates = 0;
    let closing: Promise<void> | null = null;
    await context.route("**/api/customers/create", async (route: Route) => {
      creates++;
      if (creates === 1) {
        // The first shop reaches the service; its answer is lost. Before the app hears of it the office
        // asks for the key's rotation: the app's next answer says so, and it rotates.
        await route.fetch();
        await admin("/admin/keys/rotation", { ids: [keyBefore] });
        await new Promise((r) => setTimeout(r, 1500));
        await route.abort("connectionreset");
      } else if (creates === 3) {
        // The second shop reaches the service, and the page is closed before its answer arrives.
        await route.fetch();
        closing = page.close();
      } else await route.continue();
    });
    await context.setOffline(false);
    // The lost answer stopped the sending, not the sync, which rotated the key.
    await expect
      .poll(
        async () => `${(await meta(page, "key")).id} after ${creates} sends: ${await statusLine(page).innerText()}`,
        {
          timeout: 20_000,
        },
      )
      .not.toMatch(new RegExp(`^${keyBefore} `));
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(() => closing !== null, { timeout: 20_000 }).toBe(true);
    await closing;

    page = await openPage();
    await page.goto(`${origin}/app/`);
    // The reopened page sends what is still waiting, then syncs: the book shows waiting shops meanwhile.
    await expect.poll(() => statusLine(page).innerText(), { timeout: 20_000 }).toMatch(/ 0 shops waiting to be sent/);
    await caughtUp(page, book.length + 3);
    await context.unroute("**/api/customers/create");
    for (const shop of shops) {
      expect(await heldByService(shop.mobile)).toBe(1);
      expect(await found(page, shop.name)).toBe(1);
    }
    expect(creates).toBeGreaterThanOrEqual(5);
  });

  it("shows a 409 and a 422 on the waiting shop in the service's words; the corrected shop goes through", async () => {
    const takenDigits = taken.contactperson_number.replace(/\D/g, "").slice(-10);
    await context.setOffline(true);
    await fillShop(page, { name: "Taken Number Shop", mobile: takenDigits });
    await fillShop(page, { name: "Long Name Shop", mobile: numbers[5]!, contact: "x".repeat(300) });
    await context.setOffline(false);
    await page.getByRole("button", { name: "Sync now" }).click();
    const held = page.getByRole("list", { name: "Shops that need you" });
    await expect.poll(() => held.getByRole("listitem").count(), { timeout: 20_000 }).toBe(2);
    const text = await held.innerText();
    expect(text).toMatch(/mobile/i);
    expect(text).toContain("contactpersons_name must be at most 255 characters");
    expect(text).not.toMatch(/\{|"error"|at .*\.ts/);
    await expectNoSeriousViolations(page, "the book with refused shops");

    await held.getByRole("button", { name: "Correct Long Name Shop" }).click();
    await page.getByRole("form", { name: "New shop" }).getByLabel("Contact person's name").fill("Short Name");
    await page.getByRole("button", { name: "Save shop" }).click();
    await held.getByRole("button", { name: "Discard Taken Number Shop" }).click();
    await expect.poll(() => heldByService(numbers[5]!), POLL).toBe(1);
    await caughtUp(page, book.length + 4);
    expect(await heldByService(takenDigits)).toBe(1);
  });

  it("on a revoked key says so and keeps the book and the outbox; a new code of the same agent resumes and sends", async () => {
    const { id } = await meta(page, "key");
    await admin(`/admin/keys/${id}/revoke`, {});
    await new Promise((r) => setTimeout(r, 1500));
    await fillShop(page, { name: "After Revoke Shop", mobile: numbers[6]! });
    await expect.poll(() => statusLine(page).innerText(), { timeout: 20_000 }).toContain(KEY_REFUSED);
    expect(await listCount(page).innerText()).toMatch(stated(book.length + 5));
    expect(await heldByService(numbers[6]!)).toBe(0);

    const made = await admin("/admin/enrollments", { agent_id: agent.id, mode: "test" });
    await page.getByLabel("Enrollment code").fill(made.code.toLowerCase());
    await page.getByRole("button", { name: "Enroll this phone" }).click();
    await expect.poll(() => heldByService(numbers[6]!), POLL).toBe(1);
    await caughtUp(page, book.length + 5);
    expect(await statusLine(page).innerText()).not.toContain(KEY_REFUSED);
  });

  it("recovers from a 410 with the outbox kept", async () => {
    await context.route("**/api/customers/create", (route) => route.abort("connectionreset"));
    await fillShop(page, { name: "During 410 Shop", mobile: numbers[7]! });
    // The purge mark is written through a second workerd on the state folder: only once the app's run
    // for the new shop has ended (its send failed), so that no request of the app meets the lock.
    await expect
      .poll(() => statusLine(page).innerText(), POLL)
      .toMatch(/1 shop waiting to be sent · The service could not be reached/);
    // Once that run has ended, a change the phone has not seen (a shop made by another of the agent's
    // apps), then the purge mark at it: above the phone's cursor (a run still going could catch up on it).
    const { secret } = await meta(page, "key");
    const made = await fetch(`${server.url}/api/customers/create`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        company_name: "Made Elsewhere Shop",
        contactpersons_name: "Else Where",
        mobile_number: numbers[8],
        address: "2 Test Road",
        area_id: area.id,
        postalcode_id: withOrders.address!.postalcode_id,
        gst_treatment: "Unregistered",
      }),
    });
    expect(made.status).toBe(201);
    await platform.env.DB.prepare(
      "INSERT INTO sync_books (book, purge_mark) SELECT ?1, max(seq) FROM sync_changes WHERE true ON CONFLICT (book) DO UPDATE SET purge_mark = excluded.purge_mark",
    )
      .bind(agent.id)
      .run();
    const before = await meta(page, "cursor");
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(async () => (await meta(page, "cursor"))?.cursor, { timeout: 20_000 }).not.toBe(before.cursor);
    await caughtUp(page, book.length + 7);
    expect(await statusLine(page).innerText()).toMatch(/1 shop waiting to be sent/);
    await context.unroute("**/api/customers/create");
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(() => heldByService(numbers[7]!), POLL).toBe(1);
  });

  it("looks up a PIN code unknown offline before sending the shop; a code the service does not know is shown on it", async () => {
    const known = (await meta(page, "postalcodes")) as Record<string, number>;
    const unknown = demo.postal_codes.find((p) => !(p.code in known))!;
    const requests: string[] = [];
    const log = (r: { method(): string; url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith("/api/")) requests.push(`${r.method()} ${url.pathname}${url.search}`);
    };
    page.on("request", log);
    await context.setOffline(true);
    await fillShop(page, { name: "New Pin Shop", mobile: numbers[9]!, pin: unknown.code });
    await fillShop(page, { name: "No Such Pin Shop", mobile: numbers[10]!, pin: "999999" });
    expect((await stores(page)).outbox!.map(([, e]) => (e as any).params.postalcode_id)).toEqual([null, null]);
    await context.setOffline(false);
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(() => heldByService(numbers[9]!), POLL).toBe(1);
    const held = page.getByRole("list", { name: "Shops that need you" });
    await expect.poll(() => held.innerText(), POLL).toContain("PIN code 999999 is unknown to the service.");
    page.off("request", log);
    const lookup = requests.indexOf(`GET /api/postalcodes?code=${unknown.code}`);
    expect(lookup).toBeGreaterThanOrEqual(0);
    expect(requests.indexOf("POST /api/customers/create")).toBeGreaterThan(lookup);
    await held.getByRole("button", { name: "Discard No Such Pin Shop" }).click();
    await caughtUp(page, book.length + 8);
    expect(await heldByService(numbers[10]!)).toBe(0);
    // The shop as the service made it, come back through sync: with the postal code looked up.
    const made = (await stores(page)).customer!.map(([, c]) => c as any).find((c) => c.company_name === "New Pin Shop");
    expect(made.address.postalcode).toMatchObject({ id: unknown.id, code: unknown.code });
  });

  it("keeps what is typed in a new shop while a sync brings changes under it", async () => {
    await page.getByRole("button", { name: "New shop" }).click();
    const form = page.getByRole("form", { name: "New shop" });
    await form.getByLabel("Company name").fill("Half Typed Shop");
    await form.getByLabel("Mobile number").fill(numbers[4]!);
    // Whether the form is ever taken off the screen while the app draws the book again.
    await page.evaluate(() => {
      const main = document.getElementById("main")!;
      const w = window as any;
      w.formRemoved = false;
      new MutationObserver((records) => {
        if (records.some((r) => [...r.removedNodes].some((n) => n.nodeName === "FORM"))) w.formRemoved = true;
      }).observe(main, { childList: true });
    });
    const edited = book.find((c) => c.id !== withOrders.id)!;
    await platform.env.DB.prepare("UPDATE customers SET email = ?1 WHERE id = ?2")
      .bind("typed.meanwhile@example.in", edited.id)
      .run();
    const before = await meta(page, "cursor");
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(async () => (await meta(page, "cursor"))?.cursor, POLL).not.toBe(before.cursor);
    // The run over (its lock free) and its last word on the status line: the book was drawn again before it.
    await page.evaluate(() => navigator.locks.request("order-lookup-run", () => undefined));
    await expect.poll(() => statusLine(page).innerText(), POLL).not.toMatch(/Sending and syncing/);
    const stored = (await stores(page)).customer!.map(([, c]) => c as any).find((c) => c.id === edited.id);
    expect(stored.email).toBe("typed.meanwhile@example.in");
    expect({
      removed: await page.evaluate(() => (window as any).formRemoved),
      name: await form.getByLabel("Company name").inputValue(),
      mobile: await form.getByLabel("Mobile number").inputValue(),
    }).toEqual({ removed: false, name: "Half Typed Shop", mobile: numbers[4] });
    await form.getByRole("button", { name: "Cancel" }).click();
  });

  it("says so when the phone's storage is full, and keeps what is stored", async () => {
    // Every IndexedDB write refused as a full disk refuses it.
    await page.evaluate(() => {
      const full = () => {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      };
      IDBObjectStore.prototype.put = full;
      IDBObjectStore.prototype.add = full;
    });
    const before = await stores(page);
    await fillShop(page, { name: "Full Disk Shop", mobile: numbers[11]! }, false);
    const form = page.getByRole("form", { name: "New shop" });
    await expect.poll(() => form.getByRole("alert").innerText(), POLL).toBe(`${STORAGE_FULL} This shop was not saved.`);
    expect(await form.getByLabel("Company name").inputValue()).toBe("Full Disk Shop");
    await form.getByRole("button", { name: "Cancel" }).click();
    // A record made elsewhere arrives with the next sync: it cannot be stored, and nothing is lost.
    const { secret } = await meta(page, "key");
    const made = await fetch(`${server.url}/api/customers/create`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        company_name: "Arrives When Full Shop",
        contactpersons_name: "Full Disk",
        mobile_number: numbers[12],
        address: "3 Test Road",
        area_id: area.id,
        postalcode_id: withOrders.address!.postalcode_id,
        gst_treatment: "Unregistered",
      }),
    });
    expect(made.status).toBe(201);
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(() => statusLine(page).innerText(), POLL).toContain(STORAGE_FULL);
    expect(await statusLine(page).innerText()).not.toMatch(/Error|at .*\.(ts|js)/);
    expect(await stores(page)).toEqual(before);
    expect(await listCount(page).innerText()).toMatch(stated(book.length + 8));
    // Space again (a new page: the browser's own IndexedDB): the record comes.
    await page.reload();
    await caughtUp(page, book.length + 9);
  });

  it("migrates an IndexedDB written by the app's first version: the book opens offline and syncs on from its cursor", async () => {
    const now = await stores(page);
    await page.close();
    // Version 1's layout, written from a page of the origin that the app does not run in.
    const writer = await openPage();
    await writer.goto(`${origin}/healthz`);
    const v1: Record<string, [IDBValidKey, unknown][]> = {
      customer: now.customer!,
      order: now.order!,
      outbox: now.outbox!,
      meta: now.meta!.filter(([k]) =>
        ["cursor", "key", "lastSync", "areas", "areasAt", "persisted", "postalcodes"].includes(k as string),
      ),
    };
    await writer.evaluate(
      (data: any) =>
        new Promise<void>((resolve, reject) => {
          const drop = indexedDB.deleteDatabase("order-lookup-field-app");
          drop.onerror = () => reject(drop.error);
          drop.onsuccess = () => {
            const open = indexedDB.open("order-lookup-field-app", 1);
            open.onupgradeneeded = () => {
              const db = open.result;
              db.createObjectStore("customer");
              db.createObjectStore("order").createIndex("customer", "customer.id");
              db.createObjectStore("meta");
              db.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
            };
            open.onsuccess = () => {
              const db = open.result;
              const tx = db.transaction(["customer", "order", "meta", "outbox"], "readwrite");
              for (const [name, rows] of Object.entries(data as Record<string, [IDBValidKey, unknown][]>))
                // The outbox keeps its keys in its records (keyPath "seq").
                for (const [k, v] of rows) tx.objectStore(name).put(v, name === "outbox" ? undefined : k);
              tx.oncomplete = () => {
                db.close();
                resolve();
              };
            };
          };
        }),
      v1 as any,
    );
    await writer.close();
    await context.setOffline(true);
    page = await openPage();
    await page.goto(`${origin}/app/`);
    await expect.poll(() => listCount(page).innerText(), POLL).toMatch(stated(book.length + 9));
    const migrated = await stores(page);
    expect(migrated.meta!.find(([k]) => k === "cursor")).toEqual(now.meta!.find(([k]) => k === "cursor"));
    expect((migrated.meta!.find(([k]) => k === "list")![1] as unknown[]).length).toBe(book.length + 9);
    await context.setOffline(false);
    await page.getByRole("button", { name: "Sync now" }).click();
    await caughtUp(page, book.length + 9);
    // More entries than the list holds at once: the rest a keypress away, the list still named and clean.
    await page.getByRole("button", { name: `Show ${book.length + 9 - PAGE_ROWS} more` }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => customersList(page).getByRole("listitem").count()).toBe(book.length + 9);
    expect(await listCount(page).innerText()).toBe(`${book.length + 9} customers`);
    await expectNoSeriousViolations(page, "the book with every entry shown");
  });

  it("holds the shops of another agent's phone after enrollment of a new agent: each sent or discarded at the agent's word", async () => {
    const { id } = await meta(page, "key");
    await admin(`/admin/keys/${id}/revoke`, {});
    await sleep(1500);
    await fillShop(page, { name: "Handover Shop One", mobile: numbers[14]! });
    await expect.poll(() => statusLine(page).innerText(), POLL).toContain(KEY_REFUSED);
    await fillShop(page, { name: "Handover Shop Two", mobile: numbers[15]! });

    const made = await admin("/admin/enrollments", { agent_id: other.id, mode: "test" });
    await page.getByLabel("Enrollment code").fill(made.code);
    await page.getByRole("button", { name: "Enroll this phone" }).click();
    await caughtUp(page, otherBook.length);
    const held = page.getByRole("list", { name: "Shops that need you" });
    await expect.poll(() => held.getByRole("listitem").count(), POLL).toBe(2);
    expect(await held.innerText()).toContain("Saved on this phone for another sales agent");
    expect(await statusLine(page).innerText()).toMatch(/ 0 shops waiting to be sent/);
    expect([await heldByService(numbers[14]!), await heldByService(numbers[15]!)]).toEqual([0, 0]);
    await expectNoSeriousViolations(page, "the book with another agent's shops");

    await held.getByRole("button", { name: "Send Handover Shop One" }).click();
    await expect.poll(() => heldByService(numbers[14]!), POLL).toBe(1);
    await held.getByRole("button", { name: "Discard Handover Shop Two" }).click();
    await caughtUp(page, otherBook.length + 1);
    expect(await found(page, "Handover Shop One")).toBe(1);
    expect(await heldByService(numbers[15]!)).toBe(0);
    // It came back through the new agent's sync (the book holds that agent's customers only), no longer waiting.
    expect((await stores(page)).outbox).toEqual([]);
  });

  it("does not refuse a new key for a 401 that comes back after the phone was enrolled again", async () => {
    const { id } = await meta(page, "key");
    await admin(`/admin/keys/${id}/revoke`, {});
    await sleep(1500);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held = false;
    await context.route("**/api/sync?*", async (route) => {
      if (held) return route.continue();
      held = true;
      await released;
      await route.continue();
    });
    const second = await openPage();
    try {
      // A run goes out with the revoked key; its answer (401) is late.
      await page.getByRole("button", { name: "Sync now" }).click();
      await expect.poll(() => held, POLL).toBe(true);
      const made = await admin("/admin/enrollments", { agent_id: other.id, mode: "test" });
      await second.goto(`${origin}/enroll#${made.code}`);
      await expect.poll(async () => (await meta(second, "key")).id, POLL).not.toBe(id);
      release();
      await caughtUp(second, otherBook.length + 1);
      await expect.poll(() => statusLine(page).innerText(), POLL).not.toMatch(/Sending and syncing/);
      expect(await statusLine(second).innerText()).not.toContain(KEY_REFUSED);
      await second.reload();
      await caughtUp(second, otherBook.length + 1);
      expect(await statusLine(second).innerText()).not.toContain(KEY_REFUSED);
    } finally {
      release();
      await context.unroute("**/api/sync?*");
    }
    await page.close();
    page = second;
  });

  it("takes a new version of the app at the next open, never during a send", async () => {
    const cacheNames = (p: Page) => p.evaluate(() => caches.keys());
    const [current] = await cacheNames(page);
    expect(current).toMatch(/^app-[0-9a-f]{10}$/);
    const next = "app-e2e0000001";
    // A new deploy: the service worker's script is a new file, byte for byte, naming a new version.
    proxy.rewrite("/app/sw.js", (script) => {
      expect(script).toContain(current);
      return script.replaceAll(current!.slice(4), next.slice(4));
    });
    const send = proxy.hold("POST", "/api/customers/create");
    const sends = () => proxy.seen.filter((r) => r === "POST /api/customers/create").length;
    const sentBefore = sends();
    await page.evaluate(() => ((window as any).stillThisPage = true));
    await fillShop(page, { name: "During Update Shop", mobile: numbers[13]! });
    await send.reached;
    // Mid-send, the browser finds the new version and installs it: it waits, and this page keeps its own.
    const worker = () =>
      page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.getRegistration())!;
        return {
          page: (window as any).stillThisPage,
          waiting: registration.waiting?.state ?? null,
          controlledByActive: navigator.serviceWorker.controller === registration.active,
        };
      });
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r!.update()));
    await expect.poll(worker, POLL).toEqual({ page: true, waiting: "installed", controlledByActive: true });
    expect((await cacheNames(page)).sort()).toEqual([current, next].sort());
    await expect.poll(() => statusLine(page).innerText(), POLL).toMatch(/1 shop waiting to be sent/);
    send.release();
    await expect.poll(() => heldByService(numbers[13]!), POLL).toBe(1);
    await caughtUp(page, otherBook.length + 2);
    expect({ sends: sends() - sentBefore, worker: await worker() }).toEqual({
      sends: 1,
      worker: { page: true, waiting: "installed", controlledByActive: true },
    });

    // Every page of the app closed: the browser activates the new version then, not at once. A page
    // outside the app's scope waits for that, as a person does not reopen within the same instant
    // (opened sooner, the app would still be the old version's, once more).
    await page.close();
    const outside = await openPage();
    await outside.goto(`${origin}/healthz`);
    await expect
      .poll(
        () =>
          outside.evaluate(async () => {
            const registration = (await navigator.serviceWorker.getRegistration("/app/"))!;
            return { waiting: registration.waiting?.state ?? null, active: registration.active?.state ?? null };
          }),
        POLL,
      )
      .toEqual({ waiting: null, active: "activated" });
    await outside.close();
    // The app opened again: the new version controls, the old cache is gone.
    page = await openPage();
    await page.goto(`${origin}/app/`);
    await caughtUp(page, otherBook.length + 2);
    await expect.poll(() => cacheNames(page), POLL).toEqual([next]);
    expect(await worker()).toEqual({ page: undefined, waiting: null, controlledByActive: true });
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");
    expect(await found(page, "During Update Shop")).toBe(1);
  });

  it("keeps the key's secret out of every URL, localStorage, console message and page text", async () => {
    const { secret } = await meta(page, "key");
    expect(secret).toMatch(/^sk_test_/);
    expect(page.url()).not.toContain(secret);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).toBe("{}");
    expect(await page.content()).not.toContain(secret);
    expect(consoleLines.join("\n")).not.toContain(secret);
  });

  it("removes this phone's data: the key, the book and, once the agent has seen them, the shops still waiting", async () => {
    await context.setOffline(true);
    await fillShop(page, { name: "Never Sent Shop", mobile: numbers[16]! });
    await page.getByRole("button", { name: "Remove this phone's data" }).click();
    const lost = page.getByRole("list", { name: "Shops that will be lost" });
    expect(await lost.innerText()).toContain(`Never Sent Shop (${numbers[16]})`);
    await page.getByRole("button", { name: "Keep it" }).click();
    // The book is drawn again from IndexedDB after the click resolves.
    await expect.poll(() => shown(page), POLL).toContain("Never Sent Shop");
    await page.getByRole("button", { name: "Remove this phone's data" }).click();
    await page.getByRole("button", { name: "Remove everything" }).click();
    await page.getByLabel("Enrollment code").waitFor();
    expect(await customersList(page).count()).toBe(0);
    expect(await stores(page)).toEqual({ customer: [], order: [], meta: [], outbox: [] });
    await context.setOffline(false);
    await page.reload();
    await page.getByLabel("Enrollment code").waitFor();
    expect(await heldByService(numbers[16]!)).toBe(0);
  });
});
