// The node project's global setup: launches the one browser that the run's browser tests share; or
// says once, in one plain line, which browser tests this run skips, why, and how to run them; or,
// when REQUIRE_BROWSER=1 (CI), fails the run instead of skipping.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
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
    /** The WebSocket address of the run's shared browser (launchBrowser connects to it); "" without one. */
    browserEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (BROWSER.path !== undefined) {
    // One browser for the run instead of one per file: a launch costs about 2 s of CPU before the
    // first page, and the browser's own processes (GPU, network, the zygotes) keep running beside it.
    const server = await launchBrowserServer();
    project.provide("browserEndpoint", server.wsEndpoint());
    return () => server.close();
  }
  project.provide("browserEndpoint", "");
  if (BROWSER_REQUIRED) {
    throw new Error(
      `REQUIRE_BROWSER=1, but the browser tests cannot run: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`,
    );
  }
  const enable = BROWSER.reason === "BROWSER_TESTS=off" ? "unset BROWSER_TESTS" : HOW_TO_ENABLE;
  console.log(`Skipping the browser tests in ${browserTestFiles()}: ${BROWSER.reason}. To run them, ${enable}.`);
}
