// The one reading of "Authorization: Bearer <token>"; callers keep their own token rules and texts.

const SCHEME = "bearer";

// Nothing trimmed: only one space separates the scheme, and later whitespace is part of the token.
export function bearerToken(header: string): string | null {
  if (header.indexOf(" ") !== SCHEME.length || header.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return null;
  return header.slice(SCHEME.length + 1);
}
