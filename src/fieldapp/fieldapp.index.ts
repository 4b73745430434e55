// The field app's files at /app/ (docs/field-app.md), a module built by scripts/app/build.ts, served by the worker.
import { Hono } from "hono";
import { APP_FILES, type BuiltFile } from "../../app/dist/files.ts";
import type { AppEnv } from "../env.ts";

/** What the app needs and nothing else: its own scripts, styles, images, worker and the API at its origin. */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const bodies = new Map<string, Uint8Array<ArrayBuffer>>();
function bodyOf(path: string, file: BuiltFile): Uint8Array<ArrayBuffer> {
  let body = bodies.get(path);
  if (!body) {
    body = Uint8Array.from(atob(file.base64), (ch) => ch.charCodeAt(0));
    bodies.set(path, body);
  }
  return body;
}

function serve(path: string, file: BuiltFile, request: Request): Response {
  const headers = new Headers({
    "Content-Type": file.type,
    ETag: file.etag,
    // Page and service worker revalidated at every load; the rest is named by content and never changes.
    "Cache-Control": file.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    "Content-Security-Policy": APP_CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
  if (path.endsWith("/sw.js")) {
    headers.set("Cache-Control", "no-store");
    headers.set("Service-Worker-Allowed", "/app/");
  }
  if (request.headers.get("If-None-Match") === file.etag) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : bodyOf(path, file), { headers });
}

export const fieldApp = new Hono<AppEnv>()
  .get("/app", (c) => c.redirect("/app/", 301))
  // The enrollment screen is the app's page; the code stays in the fragment, which never reaches here.
  .get("/app/enroll", (c) => serve("/app/", APP_FILES["/app/"]!, c.req.raw))
  .get("/app/*", (c, next) => {
    const file = APP_FILES[c.req.path];
    return file ? serve(c.req.path, file, c.req.raw) : next();
  });
