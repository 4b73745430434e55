// The key rules, enforced by the store itself so that no caller can write a record that breaks them.
import { ApiError, errors, type FieldError } from "../platform/errors.ts";
import { isKeyMode, KEY_MODES, type KeyMode } from "./keys.secret.ts";

export const MAX_NAME_LENGTH = 100;
/** Ten years, for expiry and grace alike; also keeps every date inside Date's range. */
export const MAX_LIFETIME_SECONDS = 10 * 365 * 24 * 60 * 60;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkName(name: unknown): string {
  if (typeof name !== "string") throw invalid("name", "is required");
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid("name", "must not be empty");
  // Counted in code points, as the enrollment cuts a composed name (docs/specification.md section 9).
  if (Array.from(trimmed).length > MAX_NAME_LENGTH)
    throw invalid("name", `must be at most ${MAX_NAME_LENGTH} characters`);
  // Control characters would break the command line's table and the logs.
  if (CONTROL.test(trimmed)) throw invalid("name", "must not contain control characters");
  return trimmed;
}

export function checkMode(mode: unknown): KeyMode {
  if (!isKeyMode(mode)) throw invalid("mode", `must be one of ${KEY_MODES.join(", ")}`);
  return mode;
}

export function checkSeconds(field: "expires_in" | "grace", value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > MAX_LIFETIME_SECONDS) {
    throw invalid(field, `must be a whole number of seconds from ${min} to ${MAX_LIFETIME_SECONDS}`);
  }
  return value;
}

/** One 422 naming every broken field; whether the agent exists is checked by the key's insert. */
export function checkNewKey(input: {
  name: unknown;
  mode: unknown;
  expiresInSeconds?: unknown;
  scopes?: unknown;
  agentId?: unknown;
}): {
  name: string;
  mode: KeyMode;
  expiresInSeconds: number | null;
  scopes: Scope[];
  agentId: number | null;
} {
  const problems: FieldError[] = [];
  const name = collect(problems, () => checkName(input.name));
  const mode = collect(problems, () => checkMode(input.mode));
  const expires = input.expiresInSeconds;
  const expiresInSeconds = expires == null ? null : collect(problems, () => checkSeconds("expires_in", expires, 1));
  const scopes = collect(problems, () => parseScopes(input.scopes));
  const agentId = collect(problems, () => checkAgentId(input.agentId));
  if (problems.length > 0) throw errors.validation(problems);
  return { name: name!, mode: mode!, expiresInSeconds: expiresInSeconds!, scopes: scopes!, agentId: agentId! };
}

/** Runs a check; its 422's fields join `problems` (undefined is returned), so that one answer names them all. */
export function collect<T>(problems: FieldError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    problems.push(...(err.options.fields ?? []));
    return undefined;
  }
}

export function checkAgentId(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw invalid("agent_id", "must be a sales agent's id: a whole number from 1");
  }
  return value;
}

function invalid(field: string, message: string) {
  return errors.validation([{ field, message }]);
}

export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

export function parseScopes(input: unknown): Scope[] {
  if (input === undefined || input === null) return [...DEFAULT_SCOPES];
  const names = typeof input === "string" ? input.split(",").map((s) => s.trim()) : input;
  if (!Array.isArray(names)) throw invalid("scopes", `must be a list of scopes: ${SCOPES.join(", ")}`);
  const given = names.filter((n) => n !== "");
  if (given.length === 0) throw invalid("scopes", `must name at least one scope: ${SCOPES.join(", ")}`);
  for (const name of given) {
    if (!isScope(name)) {
      // Echo only short plain text: an arbitrary value must not reach the error message.
      const shown = typeof name === "string" && /^[\w-]{1,32}$/.test(name) ? `'${name}'` : "a value";
      throw invalid("scopes", `has ${shown} that is not a scope: use ${SCOPES.join(", ")}`);
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

/** D1's text or a KV copy's array. Missing (a copy from before scopes) is both, so old keys keep working; a damaged
 * value keeps only the names it knows: it fails closed. */
export function storedScopes(value: unknown): Scope[] {
  if (value === undefined || value === null) return [...DEFAULT_SCOPES];
  const names: unknown[] = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
  return SCOPES.filter((s) => names.includes(s));
}

export type AuthFailure =
  "missing" | "scheme" | "malformed" | "unknown" | "expired" | "grace_ended" | "rotated" | "revoked";

const DESCRIPTIONS: Record<AuthFailure, string> = {
  missing: "Missing credentials: send the header 'Authorization: Bearer <API key>'",
  scheme: "Malformed Authorization header: it must be the word Bearer, one space and the API key",
  malformed:
    "Malformed API key: the header must be 'Bearer', one space and the key (sk_test_ or sk_live_ and its characters), with no other whitespace",
  unknown: "Invalid API key: no such key",
  expired: "Invalid API key: the key has expired",
  grace_ended: "Invalid API key: the key was rolled and its grace period has ended; use its replacement",
  rotated: "Invalid API key: the key was replaced by rotation and its time has ended; use its successor",
  revoked: "Invalid API key: the key has been revoked",
};

export function authError(failure: AuthFailure): ApiError {
  return errors.unauthenticated(DESCRIPTIONS[failure]);
}

export function notActive(record: { id: string; replaced_by: string | null }, state: "grace" | "expired" | "revoked") {
  const why = state === "grace" ? `already rolled (its replacement is ${record.replaced_by})` : state;
  return errors.conflict(`Key ${record.id} is ${why}: only an active key can be rolled`);
}
