// The node project's global setup: launches the one browser that the run's browser tests share; or
// says once, in one plain line, which browser tests this run skips, why, and how to run them; or,
// when REQUIRE_BROWSER=1 (CI), fails the run instead of skipping.
import { readdirSync, readFileSync } from "node:fs";
import { type AddressInfo } from "node:net";
import { createServer } from "node:http";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { BROWSER, BROWSER_REQUIRED, HOW_TO_ENABLE, launchBrowserServer } from "./browser.ts";

const E2E = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The test files with browser tests: those that skip them by SKIP_BROWSER_TESTS. */
function browserTestFiles(): string {
  const files = readdirSync(E2E)
    .filter((name) => name.endsWith(".test.ts"))
    .filter((name) => /\.skipIf\(SKIP_BROWSER_TESTS\)/.test(readFileSync(join(E2E, name), "utf8")))
    .map((name) => relative(process.cwd(), join(E2E, name)));
  return files.length > 1 ? `${files.slice(0, -1).join(", ")} and ${files.at(-1)}` : files.join("");
}

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Where a test file asks for the run's shared browser (launchBrowser): GET answers the browser's
     * WebSocket address, launching it on the first request; "" without a browser.
     */
    browserLauncher: string;
  }
}

/**
 * One browser for the run instead of one per file (a launch costs about 2 s of CPU before the first
 * page, and its own processes, GPU, network and zygotes, run beside it), launched only once a file
 * asks for it: a run of files without browser tests starts none.
 */
async function serveBrowserLauncher(): Promise<{ url: string; close: () => Promise<void> }> {
  let launched: Promise<BrowserServer> | undefined;
  const server = createServer((_req, res) => {
    launched ??= launchBrowserServer();
    launched.then(
      (browser) => res.writeHead(200, { "Content-Type": "text/plain" }).end(browser.wsEndpoint()),
      (error: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(String(error)),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.close();
      await (await launched?.catch(() => undefined))?.close();
    },
  };
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (BROWSER.path !== undefined) {
    const launcher = await serveBrowserLauncher();
    project.provide("browserLauncher", launcher.url);
    return launcher.close;
  }
  project.provide("browserLauncher", "");
  if (BROWSER_REQUIRED) {
    throw new Error(
      `REQUIRE_BROWSER=1, but the browser tests cannot run: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`,
    );
  }
  const enable = BROWSER.reason === "BROWSER_TESTS=off" ? "unset BROWSER_TESTS" : HOW_TO_ENABLE;
  console.log(`Skipping the browser tests in ${browserTestFiles()}: ${BROWSER.reason}. To run them, ${enable}.`);
}
