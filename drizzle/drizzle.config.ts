import { defineConfig } from "drizzle-kit";

// Generates flat SQL migrations that `wrangler d1 migrations apply` runs (wrangler.toml migrations_dir).
export default defineConfig({
  dialect: "sqlite",
  schema: "./drizzle/schema.ts",
  out: "./migrations",
});
