// The dashboard's browser tests' set-up: a `wrangler dev` with an administrator token beside a headless
// Chromium, one page of the given size whose script and console errors are collected, and the sign-in.
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, watchProblems } from "./browser.ts";
import { type DevServer, startWranglerDev } from "./server.ts";

export type Server = DevServer & { cleanup: () => Promise<void> };

export interface Dashboard {
  server: Server;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/** A fresh administrator token, long enough for the dashboard (docs/specification.md section 2). */
export const newAdminToken = (): string => `e2e-admin-${randomBytes(18).toString("base64url")}`;

/**
 * Starts the server (its D1 seeded with `sql` when given) and the browser at once, then opens one page;
 * `prepare` sees the browser context before that page exists.
 */
export async function openDashboard(options: {
  adminToken: string;
  vars?: Record<string, string>;
  sql?: string;
  viewport: { width: number; height: number };
  problems: string[];
  prepare?: (context: BrowserContext, server: Server) => Promise<void>;
}): Promise<Dashboard> {
  const [server, browser] = await Promise.all([
    startWranglerDev({ ADMIN_TOKEN: options.adminToken, ...options.vars }, options.sql),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: options.viewport });
  await options.prepare?.(context, server);
  const page = await context.newPage();
  watchProblems(page, options.problems);
  return { server, browser, context, page };
}

/** Closes what openDashboard opened, whichever of it was opened. */
export async function closeDashboard(browser: Browser | undefined, server: Server | undefined): Promise<void> {
  await browser?.close();
  await server?.cleanup();
}

/** Opens the dashboard's address and sends the administrator token through the sign-in form. */
export async function logIn(page: Page, url: string, adminToken: string): Promise<void> {
  await page.goto(`${url}/dashboard`);
  await page.getByLabel("Administrator token").fill(adminToken);
  await page.getByRole("button", { name: "Log in" }).click();
}
