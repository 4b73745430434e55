// The two linters of the OpenAPI document, each run as its own CLI with this Node (22+) and read from its JSON
// report: Redocly's recommended ruleset exactly as an outside `redocly lint --extends=recommended` runs it
// (nothing narrowed), and Spectral's spectral:oas (.spectral.yaml). For `npm run lint:openapi` and the test that
// lints the served document. Redocly exits 0 on warnings; the project allows none, so a result counts both.
import { createRequire } from "node:module";
import { join } from "node:path";
import { run } from "./processes.ts";

const resolveCli = createRequire(import.meta.url).resolve;

export interface LintResult {
  errors: number;
  warnings: number;
  /** One line a problem: severity, rule, where (a JSON pointer) and what. */
  problems: string[];
}

async function report<T>(name: string, args: string[], env: Record<string, string> = {}): Promise<T> {
  const { code, stdout, stderr } = await run(process.execPath, args, env);
  try {
    return JSON.parse(stdout) as T;
  } catch {
    throw new Error(`${name} lint exited ${code} without a report:\n${stderr}${stdout}`);
  }
}

interface RedoclyJson {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

export async function redoclyLint(file: string): Promise<LintResult> {
  const args = [resolveCli("@redocly/cli/bin/cli.js"), "lint", "--extends=recommended", "--format=json", file];
  // Telemetry and the update check would each try the network; neither changes the result.
  const env = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const { totals, problems } = await report<RedoclyJson>("redocly", args, env);
  return {
    errors: totals.errors,
    warnings: totals.warnings,
    problems: problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`),
  };
}

/** Spectral's severities, by number, as its JSON report gives them. */
const SEVERITY = ["error", "warn", "info", "hint"];

/** Spectral's report on `file`: errors and warnings fail, infos and hints are printed only. */
export async function spectralLint(file: string): Promise<LintResult> {
  const ruleset = join(import.meta.dirname, "../../.spectral.yaml");
  const cli = resolveCli("@stoplight/spectral-cli/dist/index.js");
  const args = [cli, "lint", file, `--ruleset=${ruleset}`, "--format=json", "--quiet", "--fail-severity=hint"];
  type Problem = { code: string; message: string; path: (string | number)[]; severity: number };
  const problems = await report<Problem[]>("spectral", args);
  const pointer = (path: (string | number)[]) =>
    `#/${path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
  return {
    errors: problems.filter((p) => p.severity === 0).length,
    warnings: problems.filter((p) => p.severity === 1).length,
    problems: problems.map(
      (p) => `${SEVERITY[p.severity] ?? p.severity} ${p.code} at ${pointer(p.path)}: ${p.message}`,
    ),
  };
}
