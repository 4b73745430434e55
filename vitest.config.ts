import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { experimental_readRawConfig } from "wrangler";
import { configDefaults, defineConfig } from "vitest/config";
import { buildApp } from "./scripts/app/build.ts";

// The tiers, their budgets and how to keep within them: docs/testing.md.

/**
 * The docs Worker (wrangler.docs.toml) as the tests' ASSETS service: the same files from the same
 * installed package. The e2e tests run the real one under `wrangler dev`.
 */
async function docsAssets(request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  if (!/^[\w.-]+$/.test(name)) return new Response("not found", { status: 404 });
  try {
    const body = await readFile(`node_modules/swagger-ui-dist/${name}`);
    const type = name.endsWith(".js")
      ? "text/javascript"
      : name.endsWith(".css")
        ? "text/css"
        : "application/octet-stream";
    return new Response(body, { headers: { "Content-Type": type } });
  } catch {
    return new Response("not found", { status: 404 });
  }
}

/** The administrator token of the worker tests, given as a binding like the other test values. */
const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
const TEST_CONFIG = ".wrangler/vitest/wrangler.json";

/**
 * wrangler.toml without its `[secrets] required` list, for the worker tests. Given that list,
 * wrangler reads every required secret from .dev.vars, .env or process.env and logs which one it
 * used each time it builds a worker's bindings: once per test file. The tests supply ADMIN_TOKEN
 * as a binding instead, so nothing is read from the environment and nothing is logged. Everything
 * else is the file as it is (its relative paths made absolute, since the copy lives elsewhere).
 */
function configWithoutRequiredSecrets(): string {
  const { rawConfig } = experimental_readRawConfig({ config: "wrangler.toml" });
  const config = structuredClone(rawConfig) as Record<string, any>;
  for (const section of [config, ...Object.values<Record<string, any>>(config.env ?? {})]) {
    delete section.secrets;
    if (typeof section.main === "string") section.main = resolve(section.main);
    for (const db of section.d1_databases ?? []) {
      if (typeof db.migrations_dir === "string") db.migrations_dir = resolve(db.migrations_dir);
    }
  }
  mkdirSync(dirname(TEST_CONFIG), { recursive: true });
  // Written whole, then renamed: two runs starting at once never read half a file.
  const partial = `${TEST_CONFIG}.${process.pid}`;
  writeFileSync(partial, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(partial, TEST_CONFIG);
  return TEST_CONFIG;
}

/**
 * Worker test files that need neither D1, KV nor the app: pure functions. They share a workerd too,
 * without the per-file reset (test/setup.ts) or the app: a file here that reaches for a table fails
 * at once (no migrations are applied for them).
 */
const UNIT_FILES = ["src/platform/lib/**/*.test.ts", "src/platform/paging/*.test.ts", "src/keys/keys.secret.test.ts"];

export default defineConfig(async () => {
  // Node keeps the code it compiled (wrangler's 15 MB bundle, tsx, the scripts) for the run's many
  // processes, which inherit this: about 0.3 s of CPU less for each start of wrangler.
  process.env.NODE_COMPILE_CACHE ??= resolve("node_modules/.cache/node-compile-cache");
  // The worker serves the field app's built files (src/fieldapp/): built once for the whole run. It
  // builds the typed client first, which the tests also import by its package name, as an app does.
  await buildApp();
  const migrations = await readD1Migrations("migrations");
  const configPath = configWithoutRequiredSecrets();
  // One plugin per project: the plugin keeps per-project state.
  const worker = () =>
    cloudflareTest({
      wrangler: { configPath },
      miniflare: {
        // USAGE_FLUSH_SECONDS "0": every request's usage is written after its response, so tests need not wait.
        bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: TEST_ADMIN_TOKEN, USAGE_FLUSH_SECONDS: "0" },
        serviceBindings: { ASSETS: docsAssets },
      },
    });
  return {
    test: {
      // Three test files at a time, of any project, on a 2-core machine: an e2e file spends much of
      // its time waiting for a process, a server or the browser, which a third file's work fills
      // (the whole run 287 s with two, 273 s with three, quiet, docs/testing.md). vitest runs the node
      // project's files first (projects go by name), the longest first once it has timed them, then
      // the worker files. Dealing the worker files out among the e2e files was slower (312 s): the
      // e2e files, the run's longest path, then ran one at a time.
      maxWorkers: 3,
      // The service logs a JSON line per request; a test's lines are shown only when it fails.
      silent: "passed-only" as const,
      projects: [
        {
          plugins: [worker()],
          test: {
            name: "worker",
            include: ["test/**/*.test.ts", "src/**/*.test.ts"],
            exclude: [...configDefaults.exclude, ...UNIT_FILES],
            // The files share a workerd (one per vitest worker) instead of starting one each, the most
            // of a file's cost; test/setup.ts gives each file a fresh D1, KV and module state.
            // TEST_ISOLATE=1 starts one for each file again, e.g. to rule out a leak between files.
            isolate: process.env.TEST_ISOLATE === "1",
            setupFiles: ["./test/setup.ts"],
            // vitest's 5 s is a wait for a hung test, not a time the test must keep (none is timed):
            // on a machine whose 2 cores other work keeps busy (load 15), a test of a second took
            // over 5 s (test/import/import.test.ts, a file larger than one staging batch) and failed.
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
        {
          plugins: [worker()],
          test: {
            name: "unit",
            include: UNIT_FILES,
            isolate: false,
          },
        },
        {
          test: {
            name: "node",
            environment: "node",
            include: ["e2e/**/*.test.ts"],
            testTimeout: 120_000,
            hookTimeout: 180_000,
            // For the commands the tests run (and their platform proxies): wrangler warns on standard
            // error of every required secret that the environment lacks. The scheduled jobs of
            // `npm start` and `npm run dev` are off, so that no test meets a job it did not ask for.
            env: { ADMIN_TOKEN: TEST_ADMIN_TOKEN, SCHEDULED_JOBS: "off" },
            // Finds the browser once and says in one line which browser tests are skipped without
            // one; migrates one state folder that the tests copy instead of migrating their own.
            globalSetup: ["./e2e/helpers/browser-setup.ts", "./e2e/helpers/template-setup.ts"],
          },
        },
      ],
    },
  };
});
