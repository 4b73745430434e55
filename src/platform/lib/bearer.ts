// The one reading of "Authorization: Bearer <token>", for API keys (platform/middleware/auth.ts) and the
// administrator token (admin/admin.auth.ts). Each caller keeps its own rules for the token and its own
// error texts; this decides only whether the header is the Bearer scheme and what the token is.

const SCHEME = "bearer";

/**
 * The token of a header that is exactly the word Bearer (in any letter case), one space and the
 * token; null for any other header. Nothing is trimmed: a tab, a second space or a line break
 * before the token is not the Bearer scheme, and whitespace after the space is part of the token.
 */
export function bearerToken(header: string): string | null {
  if (header.indexOf(" ") !== SCHEME.length || header.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return null;
  return header.slice(SCHEME.length + 1);
}
