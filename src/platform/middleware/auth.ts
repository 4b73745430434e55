// API key authentication (docs/specification.md section 2) behind the per-address limit on failures.
// No D1 work (one KV read at most), and no answer echoes what the caller sent: the texts are fixed.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { bearerToken } from "../lib/bearer.ts";
import { ApiError, errors } from "../errors.ts";
import { log } from "../lib/log.ts";
import {
  failureBucket,
  isRecentlyValid,
  lockedForSeconds,
  recordFailure,
  rememberValid,
} from "../../keys/keys.failed-auth.ts";
import type { KeyRecord } from "../../keys/keys.record.ts";
import { hashSecret, isKeyMode, KEY_PATTERN, type KeyMode } from "../../keys/keys.secret.ts";
import type { KeyStore } from "../../keys/keys.store.ts";

export type AuthFailure = "missing" | "scheme" | "malformed" | "unknown" | "expired" | "grace_ended" | "revoked";

const DESCRIPTIONS: Record<AuthFailure, string> = {
  missing: "Missing credentials: send the header 'Authorization: Bearer <API key>'",
  scheme: "Malformed Authorization header: it must be the word Bearer, one space and the API key",
  malformed:
    "Malformed API key: the header must be 'Bearer', one space and the key (sk_test_ or sk_live_ and its characters), with no other whitespace",
  unknown: "Invalid API key: no such key",
  expired: "Invalid API key: the key has expired",
  grace_ended: "Invalid API key: the key was rolled and its grace period has ended; use its replacement",
  revoked: "Invalid API key: the key has been revoked",
};

export function authError(failure: AuthFailure): ApiError {
  return errors.unauthenticated(DESCRIPTIONS[failure]);
}

function wrongMode(keyMode: KeyMode, deploymentMode: KeyMode): ApiError {
  return errors.unauthenticated(
    `Wrong mode: this is a ${keyMode}-mode key; this deployment accepts ${deploymentMode}-mode keys only`,
  );
}

export function parseAuthorization(
  header: string | undefined | null,
): { secret: string; mode: KeyMode } | { failure: AuthFailure } {
  if (header === undefined || header === null || header === "") return { failure: "missing" };
  const secret = bearerToken(header);
  if (secret === null) return { failure: "scheme" };
  const match = KEY_PATTERN.exec(secret);
  if (!match) return { failure: "malformed" };
  return { secret, mode: match[1] as KeyMode };
}

/** Anything but "test" or "live" refuses every key (fails closed). */
export function deploymentMode(value: unknown): KeyMode | null {
  return isKeyMode(value) ? value : null;
}

export function requireDeploymentMode(c: Context<AppEnv>): KeyMode {
  const mode = deploymentMode(c.env.MODE);
  if (mode) return mode;
  log({ level: "error", request_id: c.get("requestId"), error: "MODE must be 'test' or 'live'" });
  throw errors.internal();
}

export const auth = createMiddleware<AppEnv>(async (c, next) => {
  const mode = requireDeploymentMode(c);
  const parsed = parseAuthorization(c.req.header("Authorization"));
  const address = failureBucket(c.req.header("CF-Connecting-IP"));
  const wait = lockedForSeconds(address, Date.now());
  // Over its limit, an address is answered without a key lookup; only a key that this isolate saw
  // authenticate within the window (a phone behind the same carrier address) goes on.
  if (wait !== null && !("secret" in parsed && isRecentlyValid(await hashSecret(parsed.secret), Date.now()))) {
    throw errors.authFailuresLimited(wait);
  }

  const outcome = await authenticate(c.get("services").keys, parsed, mode);
  if (outcome instanceof ApiError) {
    if (recordFailure(address, Date.now())) {
      log({ level: "warn", request_id: c.get("requestId"), event: "auth_failure_limit_reached", address });
    }
    throw outcome;
  }
  rememberValid(outcome.hash, Date.now());
  c.set("apiKey", outcome);
  await next();
});

async function authenticate(
  keys: KeyStore,
  parsed: ReturnType<typeof parseAuthorization>,
  mode: KeyMode,
): Promise<KeyRecord | ApiError> {
  if ("failure" in parsed) return authError(parsed.failure);
  if (parsed.mode !== mode) return wrongMode(parsed.mode, mode);
  const record = await keys.findBySecret(parsed.secret);
  if (!record) return authError("unknown");
  // A record whose stored mode differs from its prefix's can only come from tampering: still refused.
  if (record.mode !== mode) return wrongMode(record.mode, mode);
  const state = keys.stateOf(record);
  if (state === "revoked") return authError("revoked");
  if (state === "expired") return authError(record.replaced_by ? "grace_ended" : "expired");
  return record;
}
