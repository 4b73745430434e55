// The administrator's credential and session: the ADMIN_TOKEN check (constant time), the signed
// session cookie and its CSRF token. The JSON admin API accepts the session; the dashboard pages
// start and end it.
//
// The cookie holds "<session id>.<expiry in epoch seconds>", signed with a key derived from
// ADMIN_TOKEN: changing the token invalidates every session at once. Nothing is stored server-side,
// so the expiry inside the signed value (not only the cookie's Max-Age) bounds a copied cookie.
import type { Context } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import { textsEqualInConstantTime } from "../lib/crypto.ts";

/** Sent as "__Host-olk_admin": Secure, Path=/, no Domain (the browser enforces the prefix). */
export const SESSION_COOKIE = "olk_admin";
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
export const MIN_ADMIN_TOKEN_LENGTH = 16;
/** The hidden form field and the header that carry the CSRF token. */
export const CSRF_FIELD = "csrf_token";
export const CSRF_HEADER = "X-CSRF-Token";

const COOKIE_OPTIONS = {
  prefix: "host",
  path: "/",
  secure: true,
  httpOnly: true,
  sameSite: "Strict",
} as const satisfies CookieOptions;

export interface Session {
  id: string;
  expiresAt: Date;
  /** Proves that a form or request came from a page this session was shown. */
  csrfToken: string;
}

/** Why logins are refused with this configuration, or null when the token is usable. */
export function adminTokenProblem(token: string | undefined): string | null {
  if (!token) return "ADMIN_TOKEN is not set";
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) {
    return `ADMIN_TOKEN is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters`;
  }
  return null;
}

/** Whether `given` is the configured token; both are hashed first so that lengths leak nothing. */
export async function adminTokenMatches(configured: string | undefined, given: string): Promise<boolean> {
  if (adminTokenProblem(configured) !== null) return false;
  return textsEqualInConstantTime(configured!, given);
}

export async function startSession(c: Context, token: string): Promise<Session> {
  const id = base64url(crypto.getRandomValues(new Uint8Array(24)));
  const expires = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  const value = `${id}.${Math.floor(expires.getTime() / 1000)}`;
  await setSignedCookie(c, SESSION_COOKIE, value, await sessionKey(token), {
    ...COOKIE_OPTIONS,
    maxAge: SESSION_TTL_SECONDS,
    expires,
  });
  return { id, expiresAt: expires, csrfToken: await csrfTokenFor(await sessionKey(token), id) };
}

/** The valid session of this request, or null (no cookie, bad signature, expired, token unusable). */
export async function readSession(c: Context, token: string | undefined): Promise<Session | null> {
  if (adminTokenProblem(token) !== null) return null;
  const key = await sessionKey(token!);
  const value = await getSignedCookie(c, key, SESSION_COOKIE, "host");
  if (!value) return null;
  const match = /^([A-Za-z0-9_-]{32})\.(\d{1,12})$/.exec(value);
  if (!match) return null;
  const expiresAt = new Date(Number(match[2]) * 1000);
  const now = Date.now();
  if (expiresAt.getTime() <= now || expiresAt.getTime() > now + SESSION_TTL_SECONDS * 1000) return null;
  return { id: match[1]!, expiresAt, csrfToken: await csrfTokenFor(key, match[1]!) };
}

export function endSession(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, COOKIE_OPTIONS);
}

/** Constant-time check of a submitted CSRF token against the session's. */
export async function csrfTokenValid(session: Session, given: string | undefined | null): Promise<boolean> {
  if (typeof given !== "string" || given === "") return false;
  return textsEqualInConstantTime(session.csrfToken, given);
}

// The derived key is kept per token: deriving costs little, but every dashboard request needs it.
let cachedKey: { token: string; key: Promise<ArrayBuffer> } | undefined;

function sessionKey(token: string): Promise<ArrayBuffer> {
  if (cachedKey?.token !== token) cachedKey = { token, key: deriveKey(token) };
  return cachedKey.key;
}

async function deriveKey(token: string): Promise<ArrayBuffer> {
  const encoder = new TextEncoder();
  const material = await crypto.subtle.importKey("raw", encoder.encode(token), "HKDF", false, ["deriveBits"]);
  return crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode("order-lookup admin dashboard"),
      info: encoder.encode("session cookie v1"),
    },
    material,
    256,
  );
}

async function csrfTokenFor(key: ArrayBuffer, sessionId: string): Promise<string> {
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(`csrf:${sessionId}`));
  return base64url(new Uint8Array(mac));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
