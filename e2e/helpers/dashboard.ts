// The dashboard's browser tests' set-up: a `wrangler dev` with an administrator token beside a headless
// Chromium, one page of the given size whose script and console errors are collected, and the sign-in.
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { launchBrowser, watchProblems } from "./browser.ts";
import { type DevServer, startWranglerDev } from "./server.ts";

export type Server = DevServer & { cleanup: () => Promise<void> };

export interface Dashboard {
  server: Server;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  adminToken: string;
  /** The page's script and console errors, in order. */
  problems: string[];
  /** The admin API's `data` (GET, or POST with a JSON body); any other answer than 200 or 201 fails the test. */
  admin(path: string, post?: { body: unknown }): Promise<any>;
}

/** A fresh administrator token, long enough for the dashboard (docs/specification.md section 2). */
const newAdminToken = (): string => `e2e-admin-${randomBytes(18).toString("base64url")}`;

/**
 * Starts the server (its D1 seeded with `sql` when given) and the browser at once, then opens one page;
 * `prepare` sees the browser context before that page exists.
 */
export async function openDashboard(options: {
  vars?: Record<string, string>;
  sql?: string;
  viewport: { width: number; height: number };
  prepare?: (context: BrowserContext, server: Server) => Promise<void>;
}): Promise<Dashboard> {
  const adminToken = newAdminToken();
  const [server, browser] = await Promise.all([
    startWranglerDev({ ADMIN_TOKEN: adminToken, ...options.vars }, options.sql),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: options.viewport });
  await options.prepare?.(context, server);
  const page = await context.newPage();
  const problems: string[] = [];
  watchProblems(page, problems);
  async function admin(path: string, post?: { body: unknown }): Promise<any> {
    const res = await fetch(`${server.url}${path}`, {
      method: post ? "POST" : "GET",
      headers: { Authorization: `Bearer ${adminToken}`, ...(post && { "Content-Type": "application/json" }) },
      body: post && JSON.stringify(post.body),
    });
    expect(res.status).toBe(post ? 201 : 200);
    return ((await res.json()) as { data: unknown }).data;
  }
  return { server, browser, context, page, adminToken, problems, admin };
}

/** Closes what openDashboard opened, if it got that far. */
export async function closeDashboard(dashboard: Dashboard | undefined): Promise<void> {
  await dashboard?.browser.close();
  await dashboard?.server.cleanup();
}

/** Opens the dashboard's address and sends the administrator token through the sign-in form. */
export async function logIn(page: Page, url: string, adminToken: string): Promise<void> {
  await page.goto(`${url}/dashboard`);
  await page.getByLabel("Administrator token").fill(adminToken);
  await page.getByRole("button", { name: "Log in" }).click();
  await loaded(page.getByRole("heading", { name: "API keys", level: 1 }));
}

/**
 * Waits for an element, then for its page's load event: after a click an element can show while the
 * rest of the new page is still arriving, and the tests read whole tables next.
 */
export async function loaded(element: Locator): Promise<void> {
  await element.waitFor();
  await element.page().waitForLoadState("load");
}

/**
 * Sends a form from the keyboard and waits for the load of the page it leads to. A key press on the page
 * does not wait for the navigation it starts (a locator's click or press waits for the new page to begin),
 * and where the page before has the elements that the test waits for next, they would be found there.
 */
export async function submit(page: Page, press: () => Promise<unknown>): Promise<void> {
  const next = page.waitForEvent("load");
  await press();
  await next;
}
