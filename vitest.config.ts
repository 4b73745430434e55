import { readFile } from "node:fs/promises";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The docs Worker (wrangler.docs.toml) as the tests' ASSETS service: the same files from the same
 * installed package. The e2e tests run the real one under `wrangler dev`.
 */
async function docsAssets(request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  if (!/^[\w.-]+$/.test(name)) return new Response("not found", { status: 404 });
  try {
    const body = await readFile(`node_modules/swagger-ui-dist/${name}`);
    const type = name.endsWith(".js") ? "text/javascript" : name.endsWith(".css") ? "text/css" : "application/octet-stream";
    return new Response(body, { headers: { "Content-Type": type } });
  } catch {
    return new Response("not found", { status: 404 });
  }
}

// Two projects: "worker" runs inside workerd with real local D1 and KV (the API's tests);
// "node" drives the operator's commands and the browser against a real `wrangler dev`.
/** The administrator token of the worker tests; wrangler.toml lists ADMIN_TOKEN as a required secret. */
const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export default defineConfig(async () => {
  // The plugin reads required secrets from process.env (and warns on every file when one is missing).
  process.env.ADMIN_TOKEN = TEST_ADMIN_TOKEN;
  const migrations = await readD1Migrations("migrations");
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // USAGE_FLUSH_SECONDS "0": every request's usage is written after its response, so tests need not wait.
                bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: TEST_ADMIN_TOKEN, USAGE_FLUSH_SECONDS: "0" },
                serviceBindings: { ASSETS: docsAssets },
              },
            }),
          ],
          test: {
            name: "worker",
            include: ["test/**/*.test.ts", "src/**/*.test.ts"],
            setupFiles: ["./test/setup.ts"],
          },
        },
        {
          test: {
            name: "node",
            environment: "node",
            include: ["e2e/**/*.test.ts"],
            testTimeout: 120_000,
            hookTimeout: 180_000,
            // They start wrangler dev servers; one file at a time keeps a 2-core machine responsive.
            fileParallelism: false,
            // Finds the browser once and says in one line which browser tests are skipped without one.
            globalSetup: ["./e2e/helpers/browser-setup.ts"],
          },
        },
      ],
    },
  };
});
