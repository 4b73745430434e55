// GET /openapi.json and GET /docs: public (no API data), and not in the document themselves.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { DOCS_PATH, docsPage } from "./openapi.docs-page.ts";
import { DOCUMENT_PATH, openApiDocument, registerComponents } from "./openapi.document.ts";

export { DOCS_PATH, DOCUMENT_PATH };

/** `app` must be the app that the API is mounted on, so that its registry holds every route. */
export function mountDocs(app: OpenAPIHono<AppEnv>): void {
  registerComponents(app);
  app.get(DOCUMENT_PATH, (c) => {
    c.header("Cache-Control", "no-cache");
    return c.json(openApiDocument(app, new URL(c.req.url).origin));
  });
  app.route("/", docsPage);
}
