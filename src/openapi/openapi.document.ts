// The OpenAPI 3.1 document from the routes, plus middleware's headers, the any-path answers, the security scheme.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { version } from "../../package.json";
import type { AppEnv } from "../env.ts";
import { API_PREFIX } from "../api.ts";
import { ALLOW_HEADER, headerRef, RESPONSE_HEADERS } from "../platform/response-headers.ts";

export const DOCUMENT_PATH = "/openapi.json";

type OpenAPIObject = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

/** The answers that any path can give. */
export const ANY_PATH_RESPONSES = "x-any-path-responses";

const DESCRIPTION = `Customers, their sales orders, and the lookups (areas, postal codes, sales agents) that
the sales agents' apps need, for a sales and distribution organization.

**Paths.** Every endpoint is served under \`${API_PREFIX}\` (listed here) and also at the root:
\`${API_PREFIX}/customers\` and \`/customers\` are the same endpoint, as are \`/area\` and \`/areas\`.

**Outside this document.** Two paths that no API client calls are left out, each said here instead: \`GET /healthz\`
(a monitor's check: 200 \`{"status":"ok","version","mode"}\` with \`Cache-Control: no-store\`, no key, no data
read, and no 4XX answer to document) and \`GET /enroll\` (what a phone's camera opens from an enrollment
QR code: 303 to the field app's enrollment screen \`/app/enroll\`, keeping the link's fragment).

**Authentication.** Every endpoint but \`${API_PREFIX}/enroll\` (whose enrollment code is its
credential) takes \`Authorization: Bearer <API key>\`: the scheme word (any letter case), one space, and the
key (\`sk_test_…\` or \`sk_live_…\`), with no other whitespace. A deployment accepts keys of its own mode
only. Authentication comes first: without a valid key the answer is 401 whatever else is wrong with the
request; the per-key rate limit (429) comes next. Only one answer comes before the 401: once 300 requests
from one client address have failed authentication within a minute, its further requests get 429 (with
\`Retry-After\`) unless their key authenticated within the last minute.

**Errors.** Every error, of every status, is the \`Error\` envelope; \`status_code\` equals the HTTP status
and \`fields\` (422) lists every broken parameter by its request name. Two answers can come from any
path and are not repeated under each operation: 404 \`NOT_FOUND\` for a path that does not exist and 405
\`METHOD_NOT_ALLOWED\` with an \`Allow\` header for another method on a path that does (both described
under \`${ANY_PATH_RESPONSES}\`, by status). \`HEAD\` is answered wherever
\`GET\` is, and \`OPTIONS\` (a CORS preflight) with 204 and no body on any path.

**Headers.** Every answer carries \`X-Request-Id\` (the caller's, when it sent one of sane length) and,
unless the deployment turns it off, \`Server-Timing\` with the D1 and KV work that it did. Lookups
carry an \`ETag\`; a matching \`If-None-Match\` gets 304.`;

const TAGS = [
  { name: "Customers", description: "The organization's customers: list and create" },
  { name: "Orders", description: "A customer's sales orders, found by phone number" },
  {
    name: "Sync",
    description: "A sales agent's book (customers and their orders) kept on the phone: the changes since a cursor",
  },
  { name: "Lookups", description: "Areas, postal codes and sales agents: the ids that creating a customer takes" },
  { name: "Keys", description: "What a key does to itself: rotate, when its answers say `Key-Rotation: due`" },
  { name: "Enrollment", description: "A field phone exchanges a one-time enrollment code for its API key" },
];

/** OpenAPI 3.1 takes an SPDX expression; "LicenseRef-" is SPDX's form for a licence of one's own. */
const LICENSE = { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" };

/** A placeholder until the organization names its API team (example.com reaches no real mail or page). */
const CONTACT = { name: "API team", url: "https://api-team.example.com", email: "api-team@example.com" };

const EVERY_RESPONSE = ["X-Request-Id", "Server-Timing"] as const;

/** Call once per app. */
export function registerComponents(app: OpenAPIHono<AppEnv>): void {
  const registry = app.openAPIRegistry;
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key, `sk_test_…` or `sk_live_…` (the deployment's mode), made on the dashboard or with `npm run keys`.",
  });
  for (const [name, header] of Object.entries(RESPONSE_HEADERS))
    registry.registerComponent("headers", name, structuredClone(header));
}

type ResponseLike = { headers?: Record<string, unknown>; $ref?: string; description?: string; content?: unknown };

// An extension, not components.responses (unreferenced, a Redocly warning): readable, out of generated clients.
function anyPathResponses(): Record<"404" | "405", ResponseLike> {
  const content = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
  return {
    "404": { description: "No endpoint at this path (any path, any method).", content },
    "405": {
      description: "The path exists but does not answer this method; `Allow` lists the methods it does.",
      headers: { Allow: structuredClone(ALLOW_HEADER) },
      content,
    },
  };
}

/** Once per isolate: routes do not change while it runs. */
let generated: OpenAPIObject | undefined;

/** `app`: the app the API is mounted on, after registerComponents(). */
export function openApiDocument(app: OpenAPIHono<AppEnv>, origin: string): OpenAPIObject {
  generated ??= decorate({
    ...app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Order and customer lookup API",
        version,
        description: DESCRIPTION,
        contact: CONTACT,
        license: LICENSE,
      },
      tags: TAGS,
    }),
    [ANY_PATH_RESPONSES]: anyPathResponses(),
  });
  return { ...generated, servers: [{ url: origin, description: "This deployment" }] };
}

/** Adds the headers of every answer to each response, the any-path answers included. */
function decorate(doc: OpenAPIObject): OpenAPIObject {
  const responses: ResponseLike[] = [];
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(
      item as Record<string, { responses?: Record<string, ResponseLike>; security?: unknown[] }>,
    )) {
      responses.push(...Object.values(operation.responses ?? {}));
      // Any answer to a key that works may say that the key is due for rotation: not a 401.
      if (!operation.security?.length) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status !== "401" && !response.$ref)
          response.headers = { ...response.headers, "Key-Rotation": headerRef("Key-Rotation") };
      }
    }
  }
  responses.push(...Object.values(doc[ANY_PATH_RESPONSES] as Record<string, ResponseLike>));
  for (const response of responses) {
    if (response.$ref) continue;
    const headers: Record<string, unknown> = {};
    for (const name of EVERY_RESPONSE) headers[name] = headerRef(name);
    response.headers = { ...headers, ...response.headers };
  }
  return doc;
}
