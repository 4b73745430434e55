// Limits guessing of the administrator token (docs/specification.md section 2): once 10 sign-ins from one
// client address have failed within 10 minutes, further attempts from it get 429 without their
// token being checked or counted, until the oldest of those failures is 10 minutes old.
// Sign-ins are the dashboard's login form and admin API requests with a bearer token.
//
// Failures live in D1 (admin_signin_failures), one row each, pruned as rows are written. A Workers
// Rate Limiting binding per address stands in front of those writes, so that a flood of parallel
// failures from one address cannot turn into unbounded writes.
import { and, desc, eq, gt, lte } from "drizzle-orm";
import type { AppEnv } from "../env.ts";
import { adminSigninFailures } from "../../drizzle/schema.ts";
import { errors } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import type { Database } from "../db/database.ts";
import { clientBucket } from "./client-address.ts";

export const SIGNIN_WINDOW_MS = 10 * 60 * 1000;
export const SIGNIN_MAX_FAILURES = 10;

export interface SignInAttempt {
  /** The primary database: the failures just written must be seen by the next attempt. */
  db: Database;
  limiter: RateLimit | undefined;
  /** The CF-Connecting-IP header. */
  connectingIp: string | undefined;
  requestId: string;
  via: "dashboard" | "admin-api";
  nowMs?: number;
}

/** The sign-in that this request makes, through the dashboard form or the admin API's bearer token. */
export function signInAttemptOf(c: SignInContext, via: SignInAttempt["via"]): SignInAttempt {
  return {
    db: c.var.services.primaryDb,
    limiter: c.env.SIGNIN_LIMITER,
    connectingIp: c.req.header("CF-Connecting-IP"),
    requestId: c.var.requestId,
    via,
  };
}

/** What a sign-in needs of a request's context: the admin API's and the dashboard's both have it. */
interface SignInContext {
  env: Pick<AppEnv["Bindings"], "SIGNIN_LIMITER">;
  req: { header(name: string): string | undefined };
  var: Pick<AppEnv["Variables"], "services" | "requestId">;
}

/**
 * Runs one sign-in: throws the 429 ApiError while the address is locked out (the token is then not
 * checked); otherwise checks the token and records a failure. True when the token matched.
 */
export async function signIn(attempt: SignInAttempt, tokenMatches: () => Promise<boolean>): Promise<boolean> {
  const address = clientBucket(attempt.connectingIp);
  const nowMs = attempt.nowMs ?? Date.now();
  const wait = await lockedForSeconds(attempt.db, address, nowMs);
  if (wait !== null) throw errors.signInLocked(wait);
  if (await tokenMatches()) return true;
  await recordFailure(attempt, address, nowMs);
  return false;
}

/** Seconds until the address may try again, or null when it may now. One D1 read. */
async function lockedForSeconds(db: Database, address: string, nowMs: number): Promise<number | null> {
  // The 10th newest failure inside the window: while it is there, the address is locked, and it
  // leaves the window (unlocking the address) when it is 10 minutes old.
  const [tenth] = await db
    .select({ at: adminSigninFailures.at })
    .from(adminSigninFailures)
    .where(and(eq(adminSigninFailures.address, address), gt(adminSigninFailures.at, nowMs - SIGNIN_WINDOW_MS)))
    .orderBy(desc(adminSigninFailures.at))
    .limit(1)
    .offset(SIGNIN_MAX_FAILURES - 1);
  if (!tenth) return null;
  return Math.max(1, Math.ceil((tenth.at + SIGNIN_WINDOW_MS - nowMs) / 1000));
}

/** The warning line (never the token), then one D1 batch: prune the expired rows, add this one. */
async function recordFailure(attempt: SignInAttempt, address: string, nowMs: number): Promise<void> {
  const recorded = await withinWriteBudget(attempt, address);
  log({
    level: "warn",
    request_id: attempt.requestId,
    event: "admin_signin_failed",
    via: attempt.via,
    address,
    recorded,
  });
  if (!recorded) return;
  const { db } = attempt;
  await db.batch([
    db.delete(adminSigninFailures).where(lte(adminSigninFailures.at, nowMs - SIGNIN_WINDOW_MS)),
    db.insert(adminSigninFailures).values({ address, at: nowMs }),
  ]);
}

/**
 * Whether the binding lets this address write another failure. Its limit is above the lockout's 10,
 * so it only ever refuses failures that arrive in parallel. A fault of the binding records anyway:
 * counting errs on the side of locking out.
 */
async function withinWriteBudget(attempt: SignInAttempt, address: string): Promise<boolean> {
  if (!attempt.limiter) return true;
  try {
    return (await attempt.limiter.limit({ key: address })).success;
  } catch {
    return true;
  }
}
