import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["node_modules/", ".wrangler/", "dist/", "packages/*/dist/", "app/dist/", "migrations/", "bench-results/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["src/**/*.ts"],
    rules: {
      // SQLite prepares a statement again each time a LIMIT parameter is bound (sql.queries.ts, rowLimit).
      "no-restricted-syntax": [
        "error",
        ...["Literal[value=/\\bLIMIT\\s+\\?/i]", "TemplateElement[value.raw=/\\bLIMIT\\s+\\?/i]"].map((selector) => ({
          selector,
          message: "A LIMIT is never a bare parameter: write LIMIT CAST(?n AS INTEGER), or rowLimit() in drizzle.",
        })),
      ],
    },
  },
);
