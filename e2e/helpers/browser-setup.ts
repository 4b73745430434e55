// The node project's global setup: says once, in one plain line, which browser tests this run skips,
// why, and how to run them; or, when REQUIRE_BROWSER=1 (CI), fails the run instead of skipping.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { BROWSER, BROWSER_REQUIRED, HOW_TO_ENABLE } from "./browser.ts";

const E2E = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The test files that drive a browser: those that launch one through ./helpers/browser.ts. */
function browserTestFiles(): string[] {
  return readdirSync(E2E)
    .filter((name) => name.endsWith(".test.ts"))
    .filter((name) => readFileSync(join(E2E, name), "utf8").includes('from "./helpers/browser.ts"'))
    .map((name) => relative(process.cwd(), join(E2E, name)));
}

export default function setup(): void {
  if (BROWSER.path !== undefined) return;
  if (BROWSER_REQUIRED) {
    throw new Error(`REQUIRE_BROWSER=1, but the browser tests cannot run: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`);
  }
  console.log(
    `Skipping the browser tests in ${browserTestFiles().join(" and ")}: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`,
  );
}
