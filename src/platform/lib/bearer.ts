// The one reading of "Authorization: Bearer <token>", for API keys and the administrator token; each caller keeps its
// own rules for the token and its own error texts.

const SCHEME = "bearer";

// Nothing is trimmed: a tab, a second space or a line break before the token is not the Bearer scheme, and whitespace
// after the one space is part of the token.
export function bearerToken(header: string): string | null {
  if (header.indexOf(" ") !== SCHEME.length || header.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return null;
  return header.slice(SCHEME.length + 1);
}
