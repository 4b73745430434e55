// npm run check: everything short of uploading (docs/development.md, Tests and checks). The typed client's
// declarations against the routes, type check, lint, formatting, the generated binding types up to date, a
// dry-run build of every Worker in both modes, the OpenAPI lint when the project has one, and the
// documentation's links. Prints each step; exits 1 naming the step that failed.
import { type CommandLine, parseCommandLine } from "./lib/cli.ts";
import { runChecked } from "./lib/processes.ts";
import { runSteps, StepFailed } from "./lib/steps.ts";
import { tempFolder } from "./lib/temp-folder.ts";
import { buildApi, buildDocs } from "./lib/workers.ts";
import { buildApp } from "./app/build.ts";

const COMMAND: CommandLine = {
  invocation: "npm run check --",
  usage: `Usage: npm run check
  The typed client's declarations up to date with the routes (npm run client:types -- --check), type check
  (the client package built first), lint, formatting (prettier --check), generated binding types up to date (wrangler types --check), a dry-run build of
  the API in test and live mode and of the docs Worker (into a temporary folder), the OpenAPI lint
  (npm run lint:openapi) if the project has one, then the documentation's links (npm run lint:docs).
  Needs no Cloudflare account.`,
};

const npm = (...args: string[]) => runChecked("npm", ["run", ...args]);

async function main(): Promise<void> {
  const outdir = tempFolder("check");
  try {
    const report = await runSteps([
      { name: "typed client's declarations match the routes", run: () => npm("client:types", "--", "--check") },
      // First: the API's build and the type check import the app's built files.
      { name: "build the field app (app/)", run: buildApp },
      { name: "type check", run: () => npm("typecheck") },
      { name: "lint", run: () => npm("lint") },
      // docs/development.md, "Layers": what may import what, with no folder exempted.
      { name: "dependency rules", run: () => npm("graph:check") },
      { name: "formatting (prettier)", run: () => npm("format:check") },
      // The cf-typegen script's own flags, so that the check and the generator agree.
      { name: "binding types up to date", run: () => npm("cf-typegen", "--", "--check") },
      { name: "build the API, test mode (dry run)", run: () => buildApi("test", outdir.path) },
      { name: "build the API, live mode (dry run)", run: () => buildApi("live", outdir.path) },
      { name: "build the docs Worker, both modes (dry run)", run: () => buildDocs(outdir.path) },
      { name: "OpenAPI lint (if present)", run: () => npm("lint:openapi", "--if-present") },
      { name: "documentation links", run: () => npm("lint:docs") },
    ]);
    console.log(`\ncheck passed: ${report.ran.length} steps`);
  } finally {
    outdir.remove();
  }
}

parseCommandLine(process.argv.slice(2), COMMAND, {});
try {
  await main();
} catch (err) {
  if (err instanceof StepFailed) {
    console.error(`\ncheck failed at step "${err.step}": ${err.reason}`);
  } else {
    console.error(`check failed: ${(err as Error).message}`);
  }
  process.exitCode = 1;
}
