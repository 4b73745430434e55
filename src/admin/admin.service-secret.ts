// The secret the session's cookie and CSRF keys derive from (docs/specification.md section 2, "The administrator's
// sign-in"): a D1 row made on first use, so that no deployment needs a step for it.
import { encodeBase64Url } from "hono/utils/encode";
import { eq } from "drizzle-orm";
import { serviceSecrets } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";

export const SESSION_SECRET_NAME = "admin-session";
const SECRET_BYTES = 32;
/** After a rotation an isolate may refuse a new session's cookie for at most this long. */
export const SECRET_CACHE_MS = 60_000;

export interface SessionKeys {
  cookie: ArrayBuffer;
  csrf: CryptoKey;
}

let cached: { keys: Promise<SessionKeys>; until: number } | undefined;

/** A sign-in passes `fresh`, so that a new session is keyed with the secret its row refers to. */
export function sessionKeys(db: Database, options: { fresh?: boolean } = {}): Promise<SessionKeys> {
  const now = Date.now();
  if (!options.fresh && cached && cached.until > now) return cached.keys;
  const keys = readOrMakeSecret(db).then(deriveKeys);
  cached = { keys, until: now + SECRET_CACHE_MS };
  // A failed read is not kept: the next request tries again.
  keys.catch(() => {
    if (cached?.keys === keys) cached = undefined;
  });
  return keys;
}

/** For tests: as a new isolate starts. */
export function forgetSessionKeys(): void {
  cached = undefined;
}

/** Of two racing isolates the first insert wins; both read the winner's secret. */
async function readOrMakeSecret(db: Database): Promise<string> {
  const secret = encodeBase64Url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)).buffer).replace(/=+$/, "");
  const [, rows] = await db.batch([
    db
      .insert(serviceSecrets)
      .values({ name: SESSION_SECRET_NAME, secret, createdAt: new Date().toISOString() })
      .onConflictDoNothing(),
    db
      .select({ secret: serviceSecrets.secret })
      .from(serviceSecrets)
      .where(eq(serviceSecrets.name, SESSION_SECRET_NAME)),
  ]);
  const row = rows[0];
  if (!row) throw new Error("the session secret was not stored");
  return row.secret;
}

async function deriveKeys(secret: string): Promise<SessionKeys> {
  const encoder = new TextEncoder();
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const derive = (info: string) =>
    crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: encoder.encode("order-lookup admin dashboard"),
        info: encoder.encode(info),
      },
      material,
      256,
    );
  const [cookie, csrf] = await Promise.all([derive("session cookie v2"), derive("csrf token v2")]);
  return {
    cookie,
    csrf: await crypto.subtle.importKey("raw", csrf, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]),
  };
}
