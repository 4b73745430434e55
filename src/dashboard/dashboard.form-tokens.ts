// One-time form tokens, so a reload or Back and resubmit never repeats a change; D1 keeps their SHA-256 per session.
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { formTokens } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import { sha256Hex } from "../platform/lib/crypto.ts";
import { randomBase62 } from "../keys/keys.secret.ts";
import { SESSION_TTL_SECONDS } from "../admin/admin.session.ts";

export const FORM_TOKEN_FIELD = "form_token";
export const FORM_TOKEN_TTL_MS = 60 * 60 * 1000;
/** A used token must read as used, not unknown, for as long as a session that could resend it lasts. */
const KEPT_AFTER_EXPIRY_MS = SESSION_TTL_SECONDS * 1000;

/** Only `fresh` may run the change. `stale`: expired, unknown or missing (a page with a new token lets the user
 * resend); `foreign`: issued to another session. */
export type FormTokenUse = "fresh" | "used" | "stale" | "foreign";

export async function issueFormToken(db: Database, sessionId: string, nowMs = Date.now()): Promise<string> {
  const token = randomBase62(43);
  await db.batch([
    db.delete(formTokens).where(lt(formTokens.expiresAt, nowMs - KEPT_AFTER_EXPIRY_MS)),
    db
      .insert(formTokens)
      .values({ tokenHash: await sha256Hex(token), form: "", sessionId, expiresAt: nowMs + FORM_TOKEN_TTL_MS }),
  ]);
  return token;
}

/** One conditional insert decides, so of two submissions exactly one is `fresh`; once per form of its page. */
export async function useFormToken(
  db: Database,
  use: { token: string | undefined; sessionId: string; form: string; nowMs?: number },
): Promise<FormTokenUse> {
  if (use.form === "") throw new TypeError("a form token is used for a form's address");
  if (use.token === undefined || use.token === "") return "stale";
  const nowMs = use.nowMs ?? Date.now();
  const tokenHash = await sha256Hex(use.token);
  const issued = db
    .select({
      tokenHash: formTokens.tokenHash,
      form: sql<string>`${use.form}`.as("form"),
      sessionId: formTokens.sessionId,
      expiresAt: formTokens.expiresAt,
    })
    .from(formTokens)
    .where(
      and(
        eq(formTokens.tokenHash, tokenHash),
        eq(formTokens.form, ""),
        eq(formTokens.sessionId, use.sessionId),
        gt(formTokens.expiresAt, nowMs),
      ),
    );
  const inserted = await db.insert(formTokens).select(issued).onConflictDoNothing();
  if (inserted.meta.changes === 1) return "fresh";
  // Refused: say why from the token's rows as they are now.
  const rows = await db
    .select({ form: formTokens.form, sessionId: formTokens.sessionId })
    .from(formTokens)
    .where(and(eq(formTokens.tokenHash, tokenHash), inArray(formTokens.form, ["", use.form])));
  const row = rows.find((r) => r.form === use.form) ?? rows.find((r) => r.form === "");
  if (!row) return "stale";
  if (row.sessionId !== use.sessionId) return "foreign";
  return row.form === use.form ? "used" : "stale";
}
