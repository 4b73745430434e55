// API key authentication behind the per-address failure limit: one KV read at most, fixed texts (specification §2).
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { bearerToken } from "../platform/lib/bearer.ts";
import { ApiError, errors } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";
import {
  failureBucket,
  failuresCounted,
  isRecentlyValid,
  lockedForSeconds,
  recordFailure,
  rememberValid,
} from "./access.failed-auth.ts";
import { authError, type AuthFailure } from "../keys/keys.rules.ts";
import type { KeyRecord } from "../keys/keys.record.ts";
import { hashSecret, isKeyMode, KEY_PATTERN, type KeyMode } from "../keys/keys.secret.ts";
import { claimFirstUseReport, expiredBecause, KEY_ROTATION_HEADER } from "../keys/keys.rotation.ts";
import type { KeyStore } from "../keys/keys.store.ts";

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
  // The address's bucket is worked out only when this isolate has counted a failure, or on one.
  const ip = c.req.header("CF-Connecting-IP");
  let bucket: string | undefined;
  const address = () => (bucket ??= failureBucket(ip));
  const wait = failuresCounted() ? lockedForSeconds(address(), Date.now()) : null;
  // An address over its limit gets no key lookup, except for keys this isolate saw authenticate (carrier addresses).
  if (wait !== null && !("secret" in parsed && isRecentlyValid(await hashSecret(parsed.secret), Date.now()))) {
    throw errors.authFailuresLimited(wait);
  }

  const outcome = await authenticate(c.get("services").keys, parsed, mode);
  if (outcome instanceof ApiError) {
    if (recordFailure(address(), Date.now())) {
      log({ level: "warn", request_id: c.get("requestId"), event: "auth_failure_limit_reached", address: address() });
    }
    throw outcome;
  }
  rememberValid(outcome.hash, Date.now());
  c.set("apiKey", outcome);
  await next();
});

/** After the handler, on every answer (errors are c.res by then): `Key-Rotation: due` and a successor's first use. */
export const keyRotationSignals = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.get("apiKey")!;
  const rotationDue = await c.get("services").keys.rotationDue(key);
  await next();
  if (rotationDue) c.res.headers.set(KEY_ROTATION_HEADER, "due");
  const now = Date.now();
  if (claimFirstUseReport(key, now)) c.executionCtx.waitUntil(reportFirstUse(c, key, now));
});

/** After the answer; never throws: a failed report is tried again by this isolate a minute later. */
async function reportFirstUse(c: Context<AppEnv>, successor: KeyRecord, atMs: number): Promise<void> {
  try {
    await c.get("services").keys.reportFirstUse(successor, atMs);
  } catch (err) {
    log({ level: "warn", event: "rotation_first_use_not_recorded", key_id: successor.id, error: errorName(err) });
  }
}

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
  if (state === "expired") return authError(expiredBecause(record));
  return record;
}
