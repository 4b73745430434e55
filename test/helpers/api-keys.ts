import { env } from "cloudflare:workers";
import { clearIsolateTier } from "../../src/lookups/lookups.cache.ts";
import { clearKnownLocked } from "../../src/admin/admin.signin-throttle.ts";
import { forgetSessionKeys } from "../../src/admin/admin.service-secret.ts";
import type { Scope } from "../../src/keys/keys.rules.ts";
import type { KeyMode } from "../../src/keys/keys.secret.ts";
import { clearFailedAuth } from "../../src/access/access.failed-auth.ts";
import { clearIsolateKeyCache } from "../../src/keys/keys.copy.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";

/** A key made through the key store module itself, in this test file's KV. */
export async function makeKey(
  options: { mode?: KeyMode; name?: string; expiresInSeconds?: number; scopes?: Scope[]; agentId?: number | null } = {},
) {
  const created = await new KeyStore(env.KEYS, env.DB).create(
    {
      name: options.name ?? "test key",
      mode: options.mode ?? "test",
      expiresInSeconds: options.expiresInSeconds,
      scopes: options.scopes,
      agentId: options.agentId,
    },
    { actor: "cli" },
  );
  return created;
}

/**
 * Forgets what this isolate cached (keys, lookups, the administrator's session keys, sign-in locks) and
 * counted (failed authentications), as a new isolate would.
 */
export function clearIsolateCaches() {
  clearIsolateKeyCache();
  clearFailedAuth();
  clearIsolateTier();
  clearKnownLocked();
  forgetSessionKeys();
}

/** The secret with its last character changed: well formed, and never the same secret. */
export const alteredSecret = (secret: string) => `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`;

/**
 * Marks keys rotation due through the key store, as an administrator would: a key made moments ago may
 * rotate itself only once due (docs/specification.md section 9, "rotated too recently").
 */
export async function markDue(...ids: string[]) {
  await new KeyStore(env.KEYS, env.DB).requestRotation({ ids }, { actor: "cli" });
}
