/* global module */
// The layers of src/ and the rules that keep its imports looking down (docs/import-graph.md draws
// them; `npm run graph:check` fails on any rule below, `npm run graph` redraws the picture). Data
// flows request -> middleware -> route -> domain module -> db -> response; a file imports only from
// its own layer or the ones below it. The layers cut across the folders: each capability folder
// (customers/, orders/, lookups/, health/, keys/, admin/, import/, dashboard/, sync/) holds a route layer
// (*.routes.ts, *.handlers.ts, its router *.index.ts), domain modules, schemas (*.schemas.ts) and
// queries (*.queries.ts); src/platform/ holds the shared machinery of every layer. A file belongs to
// the first layer below whose pattern it matches:
//
//   wiring       src/index.ts (the worker's entry), app.ts (the app), api.ts (the API's routers),
//                services.ts (the per-request services), scheduled.ts (the cron), openapi/
//   route        *.routes.ts, *.handlers.ts, *.index.ts, dashboard/ (the pages and their forms),
//                access/access.route.ts (apiRoute(), the router): a handler and the middleware it runs
//   middleware   platform/middleware/, access/ (authentication, usage, rate limit, scope),
//                admin/admin.auth.ts: per-request plumbing
//   domain       the rest of each capability folder; src/env.ts (the app's context types, type
//                imports only), platform/paging/listing.ts (which page a request asks for)
//   schemas      *.schemas.ts, platform/paging/query-params.ts: the API's zod schemas
//   db           *.queries.ts, platform/db/: the Database type, sessions, compiled queries, totals
//   base         platform/lib/ (pure helpers), platform/errors.ts, platform/response-headers.ts,
//                platform/env.ts, platform/paging/cursor.ts and pagination.ts: what every layer may use
//
// Besides the layers: src/platform/ imports nothing of src/ outside itself; keys/ imports neither
// admin/ nor dashboard/; a capability's routes are mounted by its own router
// (and the wiring), never imported by another capability; the pages and the documents are mounted by
// the app only; no cycles. Type-only imports count like any other: a type that runs upward still
// ties a lower layer to a higher one. Test files are not part of the layers.

const TESTS = "\\.test\\.tsx?$";
const CAPABILITIES = "(access|customers|orders|lookups|health|keys|admin|import|dashboard|sync|enroll)";

/** Top to bottom; a file is in the first layer that it matches. */
const LAYERS = [
  { name: "wiring", path: ["^src/(index|app|api|services|scheduled)\\.ts$", "^src/openapi/"] },
  {
    name: "route",
    path: [
      "\\.(routes|handlers|index)\\.tsx?$",
      "^src/dashboard/",
      "^src/access/access\\.route\\.ts$",
      "^src/admin/admin\\.router\\.ts$",
    ],
  },
  {
    name: "middleware",
    path: [
      "^src/platform/middleware/",
      "^src/access/access\\.(auth|usage|rate-limit|scope)\\.ts$",
      "^src/admin/admin\\.auth\\.ts$",
    ],
  },
  {
    name: "domain",
    // A capability's schemas and queries are in the layers below (a lookahead, so that the pattern
    // says it on its own wherever the rules below use it).
    path: [
      `^src/${CAPABILITIES}/(?!.*\\.(schemas|queries)\\.ts$)`,
      "^src/env\\.ts$",
      "^src/platform/paging/listing\\.ts$",
    ],
  },
  { name: "schemas", path: ["\\.schemas\\.ts$", "^src/platform/paging/query-params\\.ts$"] },
  { name: "db", path: ["\\.queries\\.ts$", "^src/platform/db/"] },
  {
    name: "base",
    path: [
      "^src/platform/lib/",
      "^src/platform/(errors|response-headers|env)\\.ts$",
      "^src/platform/paging/(cursor|pagination)\\.ts$",
    ],
  },
];

/** One rule a layer: none of its files imports a file of a layer above it. */
const layerRules = LAYERS.slice(1).map((layer, i) => {
  const above = LAYERS.slice(0, i + 1);
  const earlier = above.flatMap((l) => l.path);
  return {
    name: `${layer.name}-looks-down`,
    severity: "error",
    comment: `A ${layer.name} file imports only its own layer or those below it, never ${above.map((l) => l.name).join(", ")}.`,
    from: { path: layer.path, pathNot: [...earlier, TESTS] },
    to: { path: earlier },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A cycle has no bottom layer: break it by moving the shared part down (src, scripts, test and e2e alike).",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "every-file-in-a-layer",
      severity: "error",
      comment:
        "A new file of src/ must belong to a layer: name it by its role (*.routes.ts, *.queries.ts, ...) or put it in a folder the layers name.",
      from: { path: "^src/", pathNot: [...LAYERS.flatMap((l) => l.path), TESTS] },
      to: {},
    },
    {
      name: "entry-is-a-leaf",
      severity: "error",
      comment: "Nothing imports the worker's entry, the app or the cron handler but the entry itself.",
      from: { path: "^src/", pathNot: "^src/index\\.ts$" },
      to: { path: "^src/(index|app|scheduled)\\.ts$" },
    },
    {
      name: "pages-are-leaves",
      severity: "error",
      comment: "The dashboard and the documents (openapi/) are mounted by src/app.ts only; nothing else imports them.",
      from: { path: "^src/", pathNot: ["^src/app\\.ts$", "^src/(dashboard|openapi)/"] },
      to: { path: "^src/(dashboard|openapi)/" },
    },
    {
      name: "capabilities-mount-their-own-routes",
      severity: "error",
      comment:
        "A capability's routes, handlers and router are imported by its own folder and the wiring only, never by another capability.",
      from: { path: "^src/([^/]+)/", pathNot: TESTS },
      to: { path: "\\.(routes|handlers|index)\\.tsx?$", pathNot: "^src/$1/" },
    },
    {
      name: "platform-imports-no-capability",
      severity: "error",
      comment:
        "src/platform/ is the shared layer under every capability: it imports nothing of src/ outside itself (no capability, no wiring, not the app's context types of src/env.ts).",
      from: { path: "^src/platform/", pathNot: TESTS },
      to: { path: "^src/(?!platform/)" },
    },
    {
      name: "keys-below-admin-and-dashboard",
      severity: "error",
      comment: "The key machinery serves the admin API and the dashboard; it imports neither.",
      from: { path: "^src/keys/" },
      to: { path: "^src/(admin|dashboard)/" },
    },
    {
      name: "lib-is-pure",
      severity: "error",
      comment: "platform/lib/ holds pure helpers: nothing of src/ but platform/lib/ itself and the errors.",
      from: { path: "^src/platform/lib/", pathNot: TESTS },
      to: { path: "^src/", pathNot: ["^src/platform/lib/", "^src/platform/errors\\.ts$"] },
    },
    {
      name: "env-imports-types-only",
      severity: "error",
      comment:
        "src/env.ts and platform/env.ts hold types: a value import would run code of those modules wherever the context's type is named.",
      from: { path: "^src/(platform/)?env\\.ts$" },
      to: { path: "^src/", dependencyTypesNot: ["type-only"] },
    },
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
