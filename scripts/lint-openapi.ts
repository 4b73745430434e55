// npm run lint:openapi: builds the OpenAPI document from the app, as GET /openapi.json serves it,
// without starting a server, writes it to a temporary file and lints it twice: Redocly's recommended
// ruleset (nothing narrowed) and Spectral's spectral:oas (.spectral.yaml). Exits non-zero on any error
// or warning of either.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import app from "../src/index.ts";
import { openApiDocument } from "../src/openapi/openapi.document.ts";
import { parseCommandLine } from "./lib/cli.ts";
import { redoclyLint, spectralLint } from "./lib/openapi-lint.ts";

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
  const linters = {
    "redocly lint (recommended)": redoclyLint,
    "spectral lint (spectral:oas, .spectral.yaml)": spectralLint,
  };
  for (const [name, lint] of Object.entries(linters)) {
    const { errors, warnings, problems } = await lint(file);
    for (const problem of problems) console.log(problem);
    console.log(`OpenAPI document, ${name}: ${errors} errors, ${warnings} warnings`);
    if (errors + warnings > 0) process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
