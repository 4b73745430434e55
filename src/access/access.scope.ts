// The key's scope check (docs/specification.md section 2, "Restricted keys"): after the rate limit, so the answers come
// in the order 401, 429, 403, then the endpoint's own.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { errors } from "../platform/errors.ts";
import { hasScope, type Scope } from "../keys/keys.rules.ts";

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
