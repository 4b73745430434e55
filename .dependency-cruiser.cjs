/* global module */
// The layers of src/ and the rules that keep its imports looking down, and no import cycle in src/,
// scripts/, test/ or e2e/ (`npm run graph:check` fails on any rule below; `npm run graph` draws src/
// into docs/import-graph.md). Data
// flows request -> middleware -> route -> domain module -> db -> response; a file imports only from
// its own layer or the ones below it:
//
//   index.ts, client.ts, scheduled.ts, openapi/   wiring: mount the routes, the typed client, the
//                                                 cron handler, the OpenAPI document built from the
//                                                 routes (openapi/ reads routes/ like index.ts does)
//   routes/, admin/routes.ts, dashboard/          route files: a handler and the middleware it runs
//   middleware/                                   per-request plumbing (may use keys, cache, db, lib)
//   env.ts                                        types of the bindings and per-request variables
//                                                 (type imports of keys, cache, db, lib only)
//   customers/, orders/, lookups/, admin/,        domain modules (each other, schemas, db, lib;
//   keys/, cache/, import/                        env.ts for the context's types)
//   schemas/                                      zod schemas of the API (on lib only)
//   db/                                           the Database type and the queries (on lib and drizzle/ only)
//   lib/                                          pure helpers (import nothing of src/)
//
// Adjustments to a strict reading of the layer list, each an explicit exception below:
// - src/admin/admin.routes.ts and src/admin/admin.router.ts are the admin API's route file and its route
//   builder: like any route they run middleware (the body limit, the validation hook). The rest of
//   admin/ (its auth middleware, session, sign-in throttle, key answers) stays a domain module that
//   the dashboard builds on.
// - openapi/ builds the document from the mounted routes (their prefix), as index.ts wires them: it
//   is wiring, not a page that routes/ may import.
// - env.ts is a type-only hub: middleware, routes and admin/ import AppEnv from it; it imports only
//   the service types it names, so no cycle can run through it (no-circular checks that).
//
// Type-only imports count like any other: a type that runs upward still ties a lower layer to a
// higher one.

/** Everything in src/ outside the given top-level names (folders or files). */
const srcExcept = (...names) => `^src/(?!(${names.join("|")})(/|$))`;

/**
 * The layers whose every import must stay inside a list of top-level names of src/: one rule each,
 * "<name>": a file matching `from` imports only from `within` (folders or files).
 */
const STAYS_WITHIN = [
  {
    name: "middleware-looks-down",
    from: "^src/middleware/",
    within: ["middleware", "lib", "keys", "cache", "db", "env\\.ts"],
    comment: "middleware/ may import lib/, keys/, cache/, db/ (and env.ts for the context's type); never routes, schemas or the other domain modules.",
  },
  {
    name: "schemas-look-down",
    from: "^src/schemas/",
    within: ["schemas", "lib"],
    comment: "The API's zod schemas build on lib/ only.",
  },
  {
    name: "env-types-only",
    from: "^src/env\\.ts$",
    within: ["env\\.ts", "cache", "db", "keys", "lib"],
    comment: "env.ts names the services' types: it imports cache/, db/, keys/ and lib/ only (all of them below middleware).",
  },
  {
    name: "db-looks-down",
    from: "^src/db/",
    within: ["db", "lib"],
    comment: "db/ imports only lib/ (and drizzle/, outside src/).",
  },
  {
    name: "lib-imports-nothing-of-src",
    from: "^src/lib/",
    within: ["lib"],
    comment: "lib/ holds pure helpers: nothing of src/ outside lib/ itself.",
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle has no bottom layer: break it by moving the shared part down (src/, scripts/, test/ and e2e/ alike).",
      from: {},
      to: { circular: true },
    },
    {
      name: "entry-points-are-leaves",
      severity: "error",
      comment:
        "routes/ is imported only by the wiring (index.ts, client.ts, openapi/, which reads its prefix) and by itself; index.ts and scheduled.ts by nobody but index.ts.",
      from: { path: "^src/", pathNot: ["^src/(index|client)\\.ts$", "^src/routes/", "^src/openapi/"] },
      to: { path: ["^src/routes/", "^src/(index|scheduled)\\.ts$"] },
    },
    {
      name: "routes-not-index",
      severity: "error",
      comment: "A route never imports the app that mounts it.",
      from: { path: "^src/routes/" },
      to: { path: "^src/(index|client|scheduled)\\.ts$" },
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
      name: "domain-looks-down",
      severity: "error",
      comment:
        "Domain modules (customers/, orders/, lookups/, admin/, keys/, cache/, import/) import each other, schemas/, db/, lib/ and env.ts; never routes/, middleware/, dashboard/, openapi/ or the wiring. src/admin/admin.routes.ts and router.ts are the admin API's route file and route builder: they may run middleware like any route.",
      from: { path: "^src/(customers|orders|lookups|admin|keys|cache|import)/", pathNot: "^src/admin/route(s|r)\\.ts$" },
      to: { path: ["^src/(routes|middleware|dashboard|openapi)/", "^src/(index|client|scheduled)\\.ts$"] },
    },
    {
      name: "admin-routes-look-down",
      severity: "error",
      comment: "The admin API's route file and route builder: like routes/, anything but the wiring and the pages.",
      from: { path: "^src/admin/route(s|r)\\.ts$" },
      to: { path: ["^src/(routes|dashboard|openapi)/", "^src/(index|client|scheduled)\\.ts$"] },
    },
    {
      name: "env-imports-types-only",
      severity: "error",
      comment: "env.ts holds types: a value import would run code of those modules wherever the context's type is named.",
      from: { path: "^src/env\\.ts$" },
      to: { path: "^src/", dependencyTypesNot: ["type-only"] },
    },
    ...STAYS_WITHIN.map(({ name, from, within, comment }) => ({
      name,
      severity: "error",
      comment,
      from: { path: from },
      to: { path: srcExcept(...within) },
    })),
  ],
  options: {
    includeOnly: "^(src|drizzle|scripts|test|e2e)/",
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
