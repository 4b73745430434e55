// npm run lint:openapi: builds the OpenAPI document from the app, as GET /openapi.json serves it,
// without starting a server, writes it to a temporary file and lints it twice: Redocly's recommended
// ruleset (nothing narrowed) and Spectral's spectral:oas (.spectral.yaml). Exits non-zero on any error
// or warning of either.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import app from "../src/index.ts";
import { openApiDocument } from "../src/openapi/openapi.document.ts";
import { parseCommandLine } from "./lib/cli.ts";
import { run } from "./lib/processes.ts";
import { redoclyLint, type LintResult } from "./lib/redocly.ts";

/** Spectral's CLI script, run with this Node (22+) like Redocly's. */
const SPECTRAL_CLI = createRequire(import.meta.url).resolve("@stoplight/spectral-cli/dist/index.js");
const SPECTRAL_RULESET = join(import.meta.dirname, "../.spectral.yaml");
/** Spectral's severities, by number, as its JSON report gives them. */
const SEVERITY = ["error", "warn", "info", "hint"];

interface SpectralProblem {
  code: string;
  message: string;
  path: (string | number)[];
  severity: number;
}

/** Spectral's report on `file`: errors and warnings fail, infos and hints are printed only. */
async function spectralLint(file: string): Promise<LintResult> {
  const args = [
    SPECTRAL_CLI,
    "lint",
    file,
    `--ruleset=${SPECTRAL_RULESET}`,
    "--format=json",
    "--quiet",
    "--fail-severity=hint",
  ];
  const { code, stdout, stderr } = await run(process.execPath, args);
  let report: SpectralProblem[];
  try {
    report = JSON.parse(stdout) as SpectralProblem[];
  } catch {
    throw new Error(`spectral lint exited ${code} without a report:\n${stderr}${stdout}`);
  }
  const pointer = (path: (string | number)[]) =>
    `#/${path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
  return {
    errors: report.filter((p) => p.severity === 0).length,
    warnings: report.filter((p) => p.severity === 1).length,
    problems: report.map((p) => `${SEVERITY[p.severity] ?? p.severity} ${p.code} at ${pointer(p.path)}: ${p.message}`),
  };
}

parseCommandLine(
  process.argv.slice(2),
  {
    invocation: "npm run lint:openapi --",
    usage: `Usage: npm run lint:openapi
  Lints the OpenAPI document (as /openapi.json serves it) with Redocly's recommended ruleset
  (nothing narrowed) and Spectral's spectral:oas (.spectral.yaml), prints each problem and the totals,
  and exits 1 on any error or warning.`,
  },
  {},
);
const dir = mkdtempSync(join(tmpdir(), "olk-openapi-"));
try {
  const file = join(dir, "openapi.json");
  // The server that `npm start` serves by default; a deployment names its own address.
  writeFileSync(file, JSON.stringify(openApiDocument(app, "http://127.0.0.1:8787"), null, 2));
  const linters: [string, (file: string) => Promise<LintResult>][] = [
    ["redocly lint (recommended)", redoclyLint],
    ["spectral lint (spectral:oas, .spectral.yaml)", spectralLint],
  ];
  for (const [name, lint] of linters) {
    const { errors, warnings, problems } = await lint(file);
    for (const problem of problems) console.log(problem);
    console.log(`OpenAPI document, ${name}: ${errors} errors, ${warnings} warnings`);
    if (errors + warnings > 0) process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
