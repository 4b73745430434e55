// Limits guessing of the administrator token, through the dashboard's login form and the admin API's bearer
// token alike (docs/specification.md section 2, "The administrator's sign-in").
import type { AppEnv } from "../platform/env.ts";
import type { Database } from "../platform/db/database.ts";
import { errors } from "../platform/errors.ts";
import { log } from "../platform/lib/log.ts";
import { BoundedLru } from "../platform/lib/lru.ts";
import { clientBucket } from "../platform/lib/client-address.ts";

export const SIGNIN_WINDOW_MS = 10 * 60 * 1000;
export const SIGNIN_MAX_FAILURES = 10;

// Unlock times of addresses found locked, so that their further attempts cost no D1 query. Bounded against
// a flood from many addresses: one pushed out only costs one D1 query again.
const knownLocked = new BoundedLru<number>(10_000, SIGNIN_WINDOW_MS);

export interface SignInAttempt {
  /** The primary database: every attempt must see the reservations just made. */
  db: Database;
  connectingIp: string | undefined;
  requestId: string;
  via: "dashboard" | "admin-api";
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
export async function signIn(attempt: SignInAttempt, tokenMatches: () => Promise<boolean>): Promise<boolean> {
  const address = clientBucket(attempt.connectingIp);
  const nowMs = Date.now();
  const unlockAt = knownLocked.get(address, nowMs);
  if (unlockAt !== undefined && unlockAt > nowMs) throw errors.signInLocked(secondsUntil(unlockAt, nowMs));

  const reservation = await reserve(attempt.db, address, nowMs);
  if ("unlockAt" in reservation) {
    knownLocked.set(address, reservation.unlockAt, nowMs);
    throw errors.signInLocked(secondsUntil(reservation.unlockAt, nowMs));
  }
  // A throw from here on keeps the reservation: an attempt that did not finish counts as a failure.
  if (await tokenMatches()) {
    await attempt.db.$client.prepare("DELETE FROM admin_signin_failures WHERE id = ?1").bind(reservation.id).run();
    return true;
  }
  log({ level: "warn", request_id: attempt.requestId, event: "admin_signin_failed", via: attempt.via, address });
  return false;
}

/**
 * The reservation is one conditional INSERT: D1 runs one statement at a time, so parallel attempts cannot
 * all pass the count. A success deletes its row; a failure keeps it.
 */
async function reserve(db: Database, address: string, nowMs: number): Promise<{ id: number } | { unlockAt: number }> {
  const since = nowMs - SIGNIN_WINDOW_MS;
  const d1 = db.$client;
  const [, reserved, tenth] = (await d1.batch([
    d1.prepare("DELETE FROM admin_signin_failures WHERE at <= ?1").bind(since),
    d1
      .prepare(
        `INSERT INTO admin_signin_failures (address, at) SELECT ?1, ?2
         WHERE (SELECT count(*) FROM admin_signin_failures WHERE address = ?1 AND at > ?3) < ?4 RETURNING id`,
      )
      .bind(address, nowMs, since, SIGNIN_MAX_FAILURES),
    d1
      .prepare(
        "SELECT at FROM admin_signin_failures WHERE address = ?1 AND at > ?2 ORDER BY at DESC, id DESC LIMIT 1 OFFSET ?3",
      )
      .bind(address, since, SIGNIN_MAX_FAILURES - 1),
  ])) as [D1Result, D1Result<{ id: number }>, D1Result<{ at: number }>];
  const id = reserved.results[0]?.id;
  if (id !== undefined) return { id };
  // Not reserved: ten rows are inside the window, the 10th newest among them.
  return { unlockAt: (tenth.results[0]?.at ?? nowMs) + SIGNIN_WINDOW_MS };
}

function secondsUntil(unlockAt: number, nowMs: number): number {
  return Math.max(1, Math.ceil((unlockAt - nowMs) / 1000));
}
