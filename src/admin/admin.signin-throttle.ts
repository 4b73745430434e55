// Limits guessing of the administrator token (login form and bearer alike, docs/specification.md section 2), and of
// enrollment codes by the same rule in a bucket of their own (section 9).
import type { AppEnv } from "../env.ts";
import type { Database } from "../platform/db/database.ts";
import { errors } from "../platform/errors.ts";
import { log } from "../platform/lib/log.ts";
import { BoundedLru } from "../platform/lib/lru.ts";
import { clientBucket } from "../platform/lib/client-address.ts";
import { signinQueries } from "./admin.signin.queries.ts";

export const SIGNIN_WINDOW_MS = 10 * 60 * 1000;
export const SIGNIN_MAX_FAILURES = 10;

// Unlock times of pairs found locked, so further attempts cost no D1 query; bounded (one pushed out costs a query).
const knownLocked = new BoundedLru<number>(10_000, SIGNIN_WINDOW_MS);

/** Failed sign-ins and failed enrollment code exchanges are counted apart. */
export type ThrottleBucket = "signin" | "enroll";

export interface SignInAttempt {
  /** The primary database: every attempt must see the reservations just made. */
  db: Database;
  connectingIp: string | undefined;
  requestId: string;
  via: "dashboard" | "admin-api";
}

export interface ThrottledAttempt {
  /** The primary database: every attempt must see the reservations just made. */
  db: Database;
  connectingIp: string | undefined;
  bucket: ThrottleBucket;
  locked: (retryAfterSeconds: number) => Error;
  /** Logs a failed attempt (without the secret tried). */
  failed: (address: string) => void;
}

export function signInAttemptOf(c: SignInContext, via: SignInAttempt["via"]): SignInAttempt {
  return {
    db: c.var.services.primaryDb,
    connectingIp: c.req.header("CF-Connecting-IP"),
    requestId: c.var.requestId,
    via,
  };
}

interface SignInContext {
  req: { header(name: string): string | undefined };
  var: Pick<AppEnv["Variables"], "services" | "requestId">;
}

/** While the address is locked out: a 429, and the token is not even checked. */
export function signIn(attempt: SignInAttempt, tokenMatches: () => Promise<boolean>): Promise<boolean> {
  return throttled(
    {
      db: attempt.db,
      connectingIp: attempt.connectingIp,
      bucket: "signin",
      locked: errors.signInLocked,
      failed: (address) =>
        log({ level: "warn", request_id: attempt.requestId, event: "admin_signin_failed", via: attempt.via, address }),
    },
    tokenMatches,
  );
}

/** Checks the secret by `matches` unless the address is locked out (SIGNIN_MAX_FAILURES in SIGNIN_WINDOW_MS): a 429. */
export async function throttled(attempt: ThrottledAttempt, matches: () => Promise<boolean>): Promise<boolean> {
  const address = clientBucket(attempt.connectingIp);
  const lockKey = `${attempt.bucket} ${address}`;
  const nowMs = Date.now();
  const unlockAt = knownLocked.get(lockKey, nowMs);
  if (unlockAt !== undefined && unlockAt > nowMs) throw attempt.locked(secondsUntil(unlockAt, nowMs));

  const reservation = await reserve(attempt.db, attempt.bucket, address, nowMs);
  if ("unlockAt" in reservation) {
    // Only failures lock: a refusal counted against attempts still in flight (that may well succeed and free their
    // places) is not remembered, so that a burst of correct sign-ins never outlives its own answers.
    if (reservation.byFailures) knownLocked.set(lockKey, reservation.unlockAt, nowMs);
    throw attempt.locked(secondsUntil(reservation.unlockAt, nowMs));
  }
  const d1 = attempt.db.$client;
  let matched: boolean;
  try {
    matched = await matches();
  } catch (err) {
    // An attempt that did not finish counts as a failure; if even this write fails, the row stays reserved.
    await signinQueries
      .settle(d1, reservation.id)
      .run()
      .catch(() => undefined);
    throw err;
  }
  if (matched) {
    await signinQueries.remove(d1, reservation.id).run();
    return true;
  }
  await signinQueries.settle(d1, reservation.id).run();
  attempt.failed(address);
  return false;
}

/** One conditional INSERT: D1 runs one statement at a time, so parallel attempts cannot all pass the count. A
 * success deletes its row; a failure keeps it. */
async function reserve(
  db: Database,
  bucket: ThrottleBucket,
  address: string,
  nowMs: number,
): Promise<{ id: number } | { unlockAt: number; byFailures: boolean }> {
  const since = nowMs - SIGNIN_WINDOW_MS;
  const d1 = db.$client;
  const [, reserved, newest] = (await d1.batch([
    signinQueries.forget(d1, since),
    signinQueries.reserve(d1, bucket, address, nowMs, since, SIGNIN_MAX_FAILURES),
    signinQueries.newest(d1, bucket, address, since, SIGNIN_MAX_FAILURES),
  ])) as [D1Result, D1Result<{ id: number }>, D1Result<{ at: number; in_flight: number }>];
  const id = reserved.results[0]?.id;
  if (id !== undefined) return { id };
  // Not reserved: ten rows are inside the window; the lock lasts until the 10th newest leaves it.
  const rows = newest.results;
  return {
    unlockAt: (rows[SIGNIN_MAX_FAILURES - 1]?.at ?? nowMs) + SIGNIN_WINDOW_MS,
    byFailures: rows.length >= SIGNIN_MAX_FAILURES && rows.every((r) => r.in_flight === 0),
  };
}

function secondsUntil(unlockAt: number, nowMs: number): number {
  return Math.max(1, Math.ceil((unlockAt - nowMs) / 1000));
}

/** For tests: as a new isolate starts. */
export function clearKnownLocked(): void {
  knownLocked.clear();
}
