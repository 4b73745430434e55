// Key scopes (docs/specification.md section 2, "Restricted keys"): `read` for every GET endpoint,
// `write` for creating. A key made without naming scopes has both; so do keys made before scopes.
import { errors } from "../platform/errors.ts";

export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];

/** What a key has when none are named, and what a record from before scopes reads as. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

/**
 * A scopes list as stored: in the order read,write, each once. Accepts an array of names or a
 * comma-separated text ("write,read", "read"); undefined or null gives both. An empty list or an
 * unknown name is a 422 on `scopes`.
 */
export function parseScopes(input: unknown): Scope[] {
  if (input === undefined || input === null) return [...DEFAULT_SCOPES];
  const names = typeof input === "string" ? input.split(",").map((s) => s.trim()) : input;
  if (!Array.isArray(names)) throw invalid(`must be a list of scopes: ${SCOPES.join(", ")}`);
  const given = names.filter((n) => n !== "");
  if (given.length === 0) throw invalid(`must name at least one scope: ${SCOPES.join(", ")}`);
  for (const name of given) {
    if (!isScope(name)) {
      // The name is echoed only when it is short plain text (it is an operator's own input).
      const shown = typeof name === "string" && /^[\w-]{1,32}$/.test(name) ? `'${name}'` : "a value";
      throw invalid(`has ${shown} that is not a scope: use ${SCOPES.join(", ")}`);
    }
  }
  return SCOPES.filter((s) => given.includes(s));
}

/** Whether a key's scopes include `needed`. */
export function hasScope(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed);
}

/** The stored text of a normalized list ("read,write"). */
export function scopesText(scopes: readonly Scope[]): string {
  return scopes.join(",");
}

/**
 * The scopes of a stored value: D1's text column or a KV copy's array. A missing one (a copy written
 * before scopes existed) is both scopes: those keys keep working untouched. Anything else keeps only
 * the names it knows (fails closed: a damaged value grants nothing it does not name).
 */
export function storedScopes(value: unknown): Scope[] {
  if (value === undefined || value === null) return [...DEFAULT_SCOPES];
  const names: unknown[] = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
  return SCOPES.filter((s) => names.includes(s));
}

function invalid(message: string) {
  return errors.validation([{ field: "scopes", message }]);
}
