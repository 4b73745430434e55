// The node project's global setup: says once, in one plain line, which browser tests this run skips,
// why, and how to run them; or, when REQUIRE_BROWSER=1 (CI), fails the run instead of skipping.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { BROWSER, BROWSER_REQUIRED, HOW_TO_ENABLE } from "./browser.ts";

const E2E = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The test files with browser tests: those that skip them by SKIP_BROWSER_TESTS. */
function browserTestFiles(): string {
  const files = readdirSync(E2E)
    .filter((name) => name.endsWith(".test.ts"))
    .filter((name) => /\.skipIf\(SKIP_BROWSER_TESTS\)/.test(readFileSync(join(E2E, name), "utf8")))
    .map((name) => relative(process.cwd(), join(E2E, name)));
  return files.length > 1 ? `${files.slice(0, -1).join(", ")} and ${files.at(-1)}` : files.join("");
}

export default function setup(): void {
  if (BROWSER.path !== undefined) return;
  if (BROWSER_REQUIRED) {
    throw new Error(
      `REQUIRE_BROWSER=1, but the browser tests cannot run: ${BROWSER.reason}. To run them, ${HOW_TO_ENABLE}.`,
    );
  }
  const enable = BROWSER.reason === "BROWSER_TESTS=off" ? "unset BROWSER_TESTS" : HOW_TO_ENABLE;
  console.log(`Skipping the browser tests in ${browserTestFiles()}: ${BROWSER.reason}. To run them, ${enable}.`);
}
