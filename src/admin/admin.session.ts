// The administrator's dashboard session (docs/specification.md section 2, "The administrator's sign-in"): a signed
// cookie and a D1 row read at the primary on every use, so that signing out ends it at once.
import type { Context } from "hono";
import { deleteCookie, getCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import { encodeBase64Url } from "hono/utils/encode";
import type { CookieOptions } from "hono/utils/cookie";
import { and, eq, gt, lte } from "drizzle-orm";
import { adminSessions } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import { rowLimit } from "../platform/db/sql.queries.ts";
import type { Bindings, Variables } from "../env.ts";
import { sha256, textsEqualInConstantTime } from "../platform/lib/crypto.ts";
import { usableAdminToken } from "./admin.token.ts";
import { SESSION_SECRET_NAME, type SessionKeys, sessionKeys } from "./admin.service-secret.ts";

/** Sent as "__Host-olk_admin": Secure, Path=/, no Domain (the browser enforces the prefix). */
export const SESSION_COOKIE = "olk_admin";
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
export const CSRF_FIELD = "csrf_token";
export const CSRF_HEADER = "X-CSRF-Token";

const COOKIE_OPTIONS = {
  prefix: "host",
  path: "/",
  secure: true,
  httpOnly: true,
  sameSite: "Strict",
} as const satisfies CookieOptions;

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface Session {
  /** The hash of the cookie's id: the id itself never leaves the cookie. */
  id: string;
  expiresAt: Date;
  csrfToken: string;
}

type SessionEnv = { Bindings: Pick<Bindings, "ADMIN_TOKEN">; Variables: Pick<Variables, "services" | "requestId"> };

/** The caller must have just checked the administrator token. */
export async function startSession<E extends SessionEnv>(c: Context<E>): Promise<Session> {
  const db = primary(c);
  const id = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const idHash = await hashOf(id);
  // Read again rather than cached: the row's secret is the one that the cookie is signed with.
  const keys = await sessionKeys(db, { fresh: true });
  const now = Date.now();
  const expiresAt = now + SESSION_TTL_SECONDS * 1000;
  await db.batch([
    db.delete(adminSessions).where(lte(adminSessions.expiresAt, now)),
    db.insert(adminSessions).values({ idHash, secretName: SESSION_SECRET_NAME, createdAt: now, expiresAt }),
  ]);
  await setSignedCookie(c, SESSION_COOKIE, id, keys.cookie, {
    ...COOKIE_OPTIONS,
    maxAge: SESSION_TTL_SECONDS,
    expires: new Date(expiresAt),
  });
  return { id: idHash, expiresAt: new Date(expiresAt), csrfToken: await csrfTokenFor(keys, id) };
}

/** A forged cookie costs no D1 read: the signature is checked first. */
export async function readSession<E extends SessionEnv>(c: Context<E>): Promise<Session | null> {
  if (getCookie(c, SESSION_COOKIE, "host") === undefined) return null;
  // The admin side is closed while the token is unusable, to sessions too.
  if (usableAdminToken(c.env.ADMIN_TOKEN, c.get("requestId")) === null) return null;
  const db = primary(c);
  const keys = await sessionKeys(db);
  const id = await getSignedCookie(c, keys.cookie, SESSION_COOKIE, "host");
  if (typeof id !== "string" || !SESSION_ID.test(id)) return null;
  const idHash = await hashOf(id);
  const [row] = await db
    .select({ expiresAt: adminSessions.expiresAt })
    .from(adminSessions)
    .where(and(eq(adminSessions.idHash, idHash), gt(adminSessions.expiresAt, Date.now())))
    .limit(rowLimit(1));
  if (!row) return null;
  return { id: idHash, expiresAt: new Date(row.expiresAt), csrfToken: await csrfTokenFor(keys, id) };
}

export async function endSession<E extends SessionEnv>(c: Context<E>, session: Session): Promise<void> {
  const db = primary(c);
  await db.batch([
    db.delete(adminSessions).where(eq(adminSessions.idHash, session.id)),
    db.delete(adminSessions).where(lte(adminSessions.expiresAt, Date.now())),
  ]);
  deleteCookie(c, SESSION_COOKIE, COOKIE_OPTIONS);
}

export async function csrfTokenValid(session: Session, given: string | undefined | null): Promise<boolean> {
  if (typeof given !== "string" || given === "") return false;
  return textsEqualInConstantTime(session.csrfToken, given);
}

/** Sessions are read where they are written: a replica could still hold a row that sign-out deleted. */
function primary<E extends SessionEnv>(c: Context<E>): Database {
  return c.get("services").primaryDb;
}

/** The name D1 and the audit log give a session. */
export async function hashOf(id: string): Promise<string> {
  return base64url(await sha256(id));
}

async function csrfTokenFor(keys: SessionKeys, sessionId: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", keys.csrf, new TextEncoder().encode(`csrf:${sessionId}`));
  return base64url(new Uint8Array(mac));
}

function base64url(bytes: Uint8Array<ArrayBuffer>): string {
  return encodeBase64Url(bytes.buffer).replace(/=+$/, "");
}
