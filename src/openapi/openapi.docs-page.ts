// GET /docs: Swagger UI over /openapi.json from the ASSETS binding, so the CSP admits no other host (docs/api.md).
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { errors } from "../platform/errors.ts";
import { pageSecureHeaders } from "../platform/middleware/secure-headers.ts";
import { DOCS_INIT_JS } from "./openapi.docs-init.ts";
import { DOCS_THEME_CSS } from "./openapi.docs-theme.ts";
import { DOCUMENT_PATH } from "./openapi.document.ts";

export const DOCS_PATH = "/docs";

/** Nothing else in the package is reachable. */
const ASSETS = ["swagger-ui-bundle.js", "swagger-ui.css"] as const;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets style attributes and draws its icons with data: URLs.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Order and customer lookup API: documentation</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${DOCS_PATH}/theme.css">
  </head>
  <body>
    <noscript>This page needs JavaScript. The OpenAPI document itself is at <a href="${DOCUMENT_PATH}">${DOCUMENT_PATH}</a>.</noscript>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/init.js"></script>
  </body>
</html>
`;

type DocsEnv = AppEnv & { Bindings: AppEnv["Bindings"] & { ASSETS?: Fetcher } };

export const docsPage = new Hono<DocsEnv>();

docsPage.use(DOCS_PATH, pageSecureHeaders);

docsPage.get(DOCS_PATH, (c) => {
  c.header("Content-Security-Policy", CSP);
  return c.html(PAGE);
});

docsPage.get(`${DOCS_PATH}/init.js`, (c) =>
  c.body(DOCS_INIT_JS, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" }),
);

docsPage.get(`${DOCS_PATH}/theme.css`, (c) =>
  c.body(DOCS_THEME_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-cache" }),
);

for (const file of ASSETS) {
  docsPage.get(`${DOCS_PATH}/${file}`, async (c) => {
    const assets = c.env.ASSETS;
    // Without the binding (a config without the docs service) the page cannot work: say so plainly.
    if (!assets) throw errors.unavailable("documentation's script");
    const res = await assets.fetch(new URL(`/${file}`, c.req.url));
    return new Response(res.body, res);
  });
}
