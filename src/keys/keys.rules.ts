// The key store's input rules, enforced by the store itself so that no caller (worker, dashboard,
// command line) can write a record that breaks them.
import { ApiError, errors, type FieldError } from "../platform/errors.ts";
import { parseScopes, type Scope } from "./keys.scopes.ts";
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
