import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Two projects: "worker" runs inside workerd with real local D1 and KV (the API's tests);
// "node" drives the operator's commands and the browser against a real `wrangler dev`.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: "test-admin-token-0123456789abcdef" },
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
          },
        },
      ],
    },
  };
});
