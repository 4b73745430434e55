// Lints an OpenAPI file exactly as an outside `redocly lint --extends=recommended` does (the ruleset,
// nothing narrowed): for `npm run lint:openapi` and for the test that lints the served document.
// Redocly exits 0 on warnings; the project allows none, so the result counts both.
import { createRequire } from "node:module";
import { run } from "./processes.ts";

/** Redocly's own CLI script, run with this Node (22+) rather than whatever `node` is on PATH. */
const CLI = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

export interface LintResult {
  errors: number;
  warnings: number;
  /** One line a problem: severity, rule, where (a JSON pointer) and what. */
  problems: string[];
}

interface RedoclyJson {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

export async function redoclyLint(file: string): Promise<LintResult> {
  const args = [CLI, "lint", "--extends=recommended", "--format=json", file];
  // Telemetry and the update check would each try the network; neither changes the result.
  const env = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const { code, stdout, stderr } = await run(process.execPath, args, env);
  let report: RedoclyJson;
  try {
    report = JSON.parse(stdout) as RedoclyJson;
  } catch {
    throw new Error(`redocly lint exited ${code} without a report:\n${stderr}${stdout}`);
  }
  return {
    errors: report.totals.errors,
    warnings: report.totals.warnings,
    problems: report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`),
  };
}
