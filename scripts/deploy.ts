// npm run deploy [-- --env live] [--setup] [--dry-run] [--url URL] (docs/operations.md, Deploying).
//
// `--setup` (once per mode, before the first deploy) only creates the D1 database and KV namespaces
// that have placeholder ids and records their ids; then `wrangler secret put ADMIN_TOKEN` and the
// deploy itself. Its order holds on the very first deploy and on every later one:
//   1. refuse while wrangler.toml still has placeholder ids (a dry run only notes it);
//   2. build the docs Worker and the API without uploading (fails before anything remote changes);
//   3. remote D1 migrations: the schema first, so the new code never runs on an old schema
//      (migrations are additive, so the code still running keeps working meanwhile);
//   4. the docs Worker: the API binds it (ASSETS), so it must exist before the API's first deploy;
//   5. the API;
//   6. the smoke check: GET /healthz on the deployed address answers the new version and mode.
// A dry run does the steps that need no account (1 as a note, 2) and lists the ones it skipped.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { failureLine, parseCommandLine, UsageError } from "./lib/cli.ts";
import { applyMigrations } from "./lib/migrate.ts";
import { wrangler } from "./lib/processes.ts";
import { runSteps, StepFailed, type Step } from "./lib/steps.ts";
import { tempFolder } from "./lib/temp-folder.ts";
import { API_CONFIG, apiEnvArgs, buildApi, buildDocs, DOCS_CONFIG, type Mode } from "./lib/workers.ts";
import { buildApp } from "./app/build.ts";
import { DEPLOY_COMMAND, DEPLOY_OPTIONS, deployArgs } from "./deploy/args.ts";
import { describeResource } from "./deploy/resources.ts";
import { describeSetup, resourcesToCreate, setUp } from "./deploy/setup.ts";
import { deployedUrl, parseDeployOutput, type DeployRecord, smokeCheck } from "./deploy/smoke.ts";

/** Refuses (throws) while the mode's resources have placeholder ids; a dry run only reports them. */
function placeholderCheck(mode: Mode, dryRun: boolean): void {
  const missing = resourcesToCreate(mode);
  if (missing.length === 0) return;
  const flags = mode === "live" ? " --env live" : "";
  const message =
    `${API_CONFIG} still has placeholder ids for ${missing.map(describeResource).join(", ")}. ` +
    `Create them first: npm run deploy -- --setup${flags} (docs/operations.md, Deploying).`;
  if (!dryRun) throw new Error(message);
  console.log(`note: ${message} A real deploy would refuse here.`);
}

async function deployApi(mode: Mode, workdir: string): Promise<DeployRecord | undefined> {
  const outputFile = join(workdir, "wrangler-output.ndjson");
  await wrangler(["deploy", "-c", API_CONFIG, ...apiEnvArgs(mode)], { env: { WRANGLER_OUTPUT_FILE_PATH: outputFile } });
  try {
    return parseDeployOutput(readFileSync(outputFile, "utf8"));
  } catch {
    return undefined;
  }
}

function plan(args: ReturnType<typeof deployArgs>, workdir: string): Step[] {
  const { mode, dryRun } = args;
  let record: DeployRecord | undefined;
  if (args.setup) {
    return [
      {
        name: `setup: create the ${mode} mode's D1 database and KV namespaces, record their ids`,
        account: true,
        run: () => setUp(mode),
      },
    ];
  }
  return [
    { name: "resource ids in wrangler.toml", run: async () => placeholderCheck(mode, dryRun) },
    { name: "build the field app (app/)", run: buildApp },
    { name: "build the docs Worker (dry run)", run: () => buildDocs(join(workdir, "build")) },
    { name: `build the API, ${mode} mode (dry run)`, run: () => buildApi(mode, join(workdir, "build")) },
    {
      name: `remote D1 migrations (${mode})`,
      account: true,
      run: () =>
        applyMigrations({ remote: true, environment: mode === "live" ? "live" : undefined, carryOverKeys: false }),
    },
    {
      name: `deploy the docs Worker (${DOCS_CONFIG})`,
      account: true,
      run: () => wrangler(["deploy", "-c", DOCS_CONFIG]),
    },
    {
      name: `deploy the API, ${mode} mode`,
      account: true,
      run: async () => {
        record = await deployApi(mode, workdir);
      },
    },
    {
      name: "smoke check: GET /healthz",
      account: true,
      run: async () => {
        const url = args.url ?? deployedUrl(record);
        if (!url)
          throw new Error(
            "wrangler reported no workers.dev address for the API: pass the deployment's address with --url",
          );
        const health = await smokeCheck(url, { mode, versionId: record?.versionId });
        console.log(`${url}/healthz: ${JSON.stringify(health)}`);
      },
    },
  ];
}

async function main(): Promise<void> {
  const args = deployArgs(parseCommandLine(process.argv.slice(2), DEPLOY_COMMAND, DEPLOY_OPTIONS).values);
  console.log(`${args.dryRun ? "Dry run of the deploy" : "Deploying"}: ${args.mode} mode`);
  if (args.setup && args.dryRun) console.log(`setup: ${describeSetup(args.mode)}`);
  const workdir = tempFolder("deploy");
  try {
    const report = await runSteps(plan(args, workdir.path), { dryRun: args.dryRun });
    const flags = args.mode === "live" ? " --env live" : "";
    if (args.dryRun) {
      console.log(`\nDry run passed: ${report.ran.length} steps done; skipped (they need the Cloudflare account):`);
      for (const name of report.skipped) console.log(`  - ${name}`);
    } else if (args.setup) {
      console.log(
        `\nSet up ${args.mode} mode. Next: npx wrangler secret put ADMIN_TOKEN${flags}, then npm run deploy${flags ? ` --${flags}` : ""}.`,
      );
    } else {
      console.log(`\nDeployed ${args.mode} mode.`);
    }
  } finally {
    workdir.remove();
  }
}

try {
  await main();
} catch (err) {
  if (err instanceof UsageError) console.error(failureLine(err, DEPLOY_COMMAND));
  else if (err instanceof StepFailed) console.error(`\ndeploy failed at step "${err.step}": ${err.reason}`);
  else console.error(`deploy failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
