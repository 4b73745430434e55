// The one place that finds the browser for the browser tests and launches it. It looks where a user
// would have Chromium or Chrome (docs/development.md, "Tests and checks"): CHROME_PATH or CHROMIUM_PATH when
// set (and then nowhere else, so a wrong setting is reported rather than papered over), else the
// usual command names on PATH, else the usual install locations. Never a browser download.
import { accessSync, constants, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type BrowserServer,
  chromium,
  type Page,
} from "playwright-core";
import { inject } from "vitest";

/** The names a Chromium or Chrome goes by on PATH, in order of preference. */
export const PATH_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

/** Where installers put them when PATH does not lead there. */
function installLocations(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform === "darwin") {
    const apps = ["/Applications", join(homedir(), "Applications")];
    return apps.flatMap((dir) => [
      `${dir}/Google Chrome.app/Contents/MacOS/Google Chrome`,
      `${dir}/Chromium.app/Contents/MacOS/Chromium`,
    ]);
  }
  if (platform === "win32") {
    const roots = [env.PROGRAMFILES, env["PROGRAMFILES(X86)"], env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.map((root) => join(root, "Google", "Chrome", "Application", "chrome.exe"));
  }
  return [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/snap/bin/chromium",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
  ];
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export type BrowserLookup = { path: string } | { path?: undefined; reason: string };

export interface LookupSystem {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  isExecutable: (path: string) => boolean;
}

const REAL_SYSTEM: LookupSystem = { env: process.env, platform: process.platform, isExecutable: isExecutableFile };

/** Finds a Chromium or Chrome, or says in a few words why there is none. */
export function findBrowser(system: LookupSystem = REAL_SYSTEM): BrowserLookup {
  const { env, platform, isExecutable } = system;
  if (env.BROWSER_TESTS === "off") return { reason: "BROWSER_TESTS=off" };
  for (const name of ["CHROME_PATH", "CHROMIUM_PATH"] as const) {
    const value = env[name];
    if (!value) continue;
    return isExecutable(value) ? { path: value } : { reason: `${name}=${value} is not an executable file` };
  }
  const suffix = platform === "win32" ? ".exe" : "";
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of PATH_NAMES) {
    for (const dir of dirs) {
      const candidate = join(dir, name + suffix);
      if (isExecutable(candidate)) return { path: candidate };
    }
  }
  const located = installLocations(env, platform).find(isExecutable);
  if (located) return { path: located };
  return {
    reason: `no Chromium or Chrome found (CHROME_PATH and CHROMIUM_PATH unset; not on PATH as ${PATH_NAMES.join(", ")}; not at ${installLocations(env, platform).join(", ")})`,
  };
}

/** CI sets REQUIRE_BROWSER=1: there a missing browser fails the browser tests instead of skipping them. */
export const BROWSER_REQUIRED = process.env.REQUIRE_BROWSER === "1";

export const BROWSER = findBrowser();

/** For describe.skipIf: no browser, and nobody insists on one. */
export const SKIP_BROWSER_TESTS = BROWSER.path === undefined && !BROWSER_REQUIRED;

export const HOW_TO_ENABLE =
  "install Chromium (Debian: apt-get install chromium) or Chrome, or set CHROME_PATH to its executable";

/**
 * A headless Chromium or Chrome; throws why not (and how to get one) when there is none. In the test
 * run it is a connection to the one browser that the global setup launches (./browser-setup.ts):
 * a file's contexts are its own (cookies, storage, permissions), and closing the connection closes
 * them, not the browser. Elsewhere (no endpoint provided) a browser of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  if (BROWSER.path === undefined) {
    throw new Error(`The browser tests need a browser: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`);
  }
  const launcher = inject("browserLauncher");
  if (launcher) {
    const res = await fetch(launcher);
    const answer = await res.text();
    if (res.status !== 200) throw new Error(`the run's browser did not start: ${answer}`);
    return chromium.connect(answer);
  }
  return chromium.launch({ executablePath: BROWSER.path, args: LAUNCH_ARGS });
}

/** The browser that a whole test run shares: launched by the global setup on first use, closed at its end. */
export function launchBrowserServer(): Promise<BrowserServer> {
  if (BROWSER.path === undefined) throw new Error(`no browser: ${BROWSER.reason}`);
  return chromium.launchServer({ executablePath: BROWSER.path, args: LAUNCH_ARGS });
}

/**
 * A headless Chromium or Chrome with a profile of its own in `userDataDir` (not an incognito
 * context): what installability and persistent storage are judged on, for the field app's tests.
 */
export function launchProfile(userDataDir: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  if (BROWSER.path === undefined) {
    throw new Error(`The browser tests need a browser: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`);
  }
  return chromium.launchPersistentContext(userDataDir, { ...options, executablePath: BROWSER.path, args: LAUNCH_ARGS });
}

const LAUNCH_ARGS = [
  // Root in a container has no user namespace for the sandbox; the pages are the test's own.
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  // Nothing but the test's own server: no update checks, sync or component downloads.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Collects what a page reports as wrong: script errors and console errors (a CSP violation shows up
 * there). "Failed to load resource" is left out: the tests cause error statuses on purpose.
 */
export function watchProblems(page: Page, problems: string[]): void {
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
}
