// The test-only binding that vitest.config.ts adds beside the generated Env (worker-configuration.d.ts).
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}

export {};
