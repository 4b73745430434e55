// The typed client's package (packages/client, docs/decisions.md "The client package") built into its dist/ when
// its sources changed. `npm ci` builds it (its prepare script); the tests, the type check and whatever bundles it
// call this too, so that an edited client is never run stale. tsc -b is incremental: about a second when
// nothing changed.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";

export const CLIENT_PACKAGE_DIR = resolve(import.meta.dirname, "../../packages/client");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

export function buildClientPackage(): void {
  execFileSync(process.execPath, [TSC, "-b", CLIENT_PACKAGE_DIR], { stdio: "inherit" });
}
