// Key scopes (docs/specification.md section 2, "Restricted keys"): parsed from input and from stored
// values, kept as one normalized list.
import { errors } from "../platform/errors.ts";

export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

export function parseScopes(input: unknown): Scope[] {
  if (input === undefined || input === null) return [...DEFAULT_SCOPES];
  const names = typeof input === "string" ? input.split(",").map((s) => s.trim()) : input;
  if (!Array.isArray(names)) throw invalid(`must be a list of scopes: ${SCOPES.join(", ")}`);
  const given = names.filter((n) => n !== "");
  if (given.length === 0) throw invalid(`must name at least one scope: ${SCOPES.join(", ")}`);
  for (const name of given) {
    if (!isScope(name)) {
      // Echo only short plain text: an arbitrary value must not reach the error message.
      const shown = typeof name === "string" && /^[\w-]{1,32}$/.test(name) ? `'${name}'` : "a value";
      throw invalid(`has ${shown} that is not a scope: use ${SCOPES.join(", ")}`);
    }
  }
  return SCOPES.filter((s) => given.includes(s));
}

export function hasScope(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed);
}

export function scopesText(scopes: readonly Scope[]): string {
  return scopes.join(",");
}

/**
 * D1's text or a KV copy's array. Missing (a copy from before scopes) is both, so old keys keep working;
 * a damaged value keeps only the names it knows: it fails closed.
 */
export function storedScopes(value: unknown): Scope[] {
  if (value === undefined || value === null) return [...DEFAULT_SCOPES];
  const names: unknown[] = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
  return SCOPES.filter((s) => names.includes(s));
}

function invalid(message: string) {
  return errors.validation([{ field: "scopes", message }]);
}
