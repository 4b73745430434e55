/* global module */
// The layers of src/ and the rules that keep its imports looking down (docs/import-graph.md draws
// them; `npm run graph:check` fails on any rule below, `npm run graph` redraws the picture).
//
//   index.ts, client.ts                      wire the app / the typed client
//   routes/, openapi/, dashboard/            HTTP entry points, mounted by index.ts only
//   middleware/, env.ts                      per-request plumbing (may use lib, keys, cache, db)
//   schemas/                                 zod schemas of the API (on lib only)
//   customers/, admin/, keys/, cache/, import/   domain modules
//   db/                                      the Database type and the queries (on lib and drizzle/ only)
//   lib/                                     pure helpers (import nothing of src/)
//
// Type-only imports count like any other: a type that runs upward still ties a lower layer to a
// higher one.

/** Everything in src/ outside the given top-level names (folders or files). */
const srcExcept = (...names) => `^src/(?!(${names.join("|")})(/|$))`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle has no bottom layer: break it by moving the shared part down.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "entry-points-are-leaves",
      severity: "error",
      comment: "routes/ and index.ts are imported only by index.ts and client.ts (and routes/ by itself).",
      from: { path: "^src/", pathNot: ["^src/(index|client)\\.ts$", "^src/routes/"] },
      to: { path: ["^src/routes/", "^src/index\\.ts$"] },
    },
    {
      name: "routes-not-index",
      severity: "error",
      comment: "A route never imports the app that mounts it.",
      from: { path: "^src/routes/" },
      to: { path: "^src/(index|client)\\.ts$" },
    },
    {
      name: "pages-are-leaves",
      severity: "error",
      comment: "openapi/ and dashboard/ are mounted by index.ts only; the admin API never imports the dashboard.",
      from: { path: "^src/", pathNot: ["^src/index\\.ts$", "^src/dashboard/"] },
      to: { path: "^src/dashboard/" },
    },
    {
      name: "openapi-is-a-leaf",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/(index|client)\\.ts$", "^src/openapi/"] },
      to: { path: "^src/openapi/" },
    },
    {
      name: "middleware-looks-down",
      severity: "error",
      comment: "middleware/ may import lib/, keys/, cache/, db/ (and env.ts for the context's type).",
      from: { path: "^src/middleware/" },
      to: { path: srcExcept("middleware", "lib", "keys", "cache", "db", "env\\.ts") },
    },
    {
      name: "schemas-look-down",
      severity: "error",
      comment: "The API's zod schemas build on lib/ only.",
      from: { path: "^src/schemas/" },
      to: { path: srcExcept("schemas", "lib") },
    },
    {
      name: "domain-looks-down",
      severity: "error",
      comment:
        "Domain modules (customers/, admin/, keys/, cache/, import/) import each other, schemas/, db/, lib/ and env.ts; never routes/, middleware/, dashboard/ or openapi/.",
      from: { path: "^src/(customers|admin|keys|cache|import)/" },
      to: { path: "^src/(routes|middleware|dashboard|openapi)/" },
    },
    {
      name: "db-looks-down",
      severity: "error",
      comment: "db/ imports only lib/ (and drizzle/, outside src/).",
      from: { path: "^src/db/" },
      to: { path: srcExcept("db", "lib") },
    },
    {
      name: "lib-imports-nothing-of-src",
      severity: "error",
      comment: "lib/ holds pure helpers: nothing of src/ outside lib/ itself.",
      from: { path: "^src/lib/" },
      to: { path: srcExcept("lib") },
    },
  ],
  options: {
    includeOnly: "^(src|drizzle)/",
    exclude: { path: "\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".json"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
