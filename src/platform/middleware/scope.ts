// The key's scope check (docs/specification.md section 2, "Restricted keys"): runs on every API
// route right after the rate limit (401, 429, then 403, then the endpoint's own answers), and
// refuses a key that lacks the scope the route needs with 403 PERMISSION_ERROR naming it.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { errors } from "../errors.ts";
import { hasScope, type Scope } from "../../keys/keys.scopes.ts";

/** The 403's description: the scope and the endpoint ("GET /customers") that needs it. */
export function missingScopeDescription(scope: Scope, endpoint: string): string {
  return `This API key lacks the '${scope}' scope, which ${endpoint} needs`;
}

export function requireScope(scope: Scope, endpoint: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.get("apiKey");
    // auth runs first on every API route; without a key there is nothing to grant (fails closed).
    if (!key || !hasScope(key.scopes, scope)) throw errors.forbidden(missingScopeDescription(scope, endpoint));
    await next();
  });
}
