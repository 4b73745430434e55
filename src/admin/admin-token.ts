// The administrator token (docs/specification.md section 2, The administrator's sign-in): at least 32
// characters, compared in constant time. An unusable one closes the admin side; only the log says why.
import { textsEqualInConstantTime } from "../lib/crypto.ts";
import { log } from "../lib/log.ts";

export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Why no sign-in is accepted with this configuration, for the log and the operator's scripts; null when usable. */
export function adminTokenProblem(token: string | undefined): string | null {
  if (!token) return "ADMIN_TOKEN is not set";
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) return `ADMIN_TOKEN is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters`;
  return null;
}

/**
 * The configured token when it is usable; otherwise null, after an error line that says why. Callers
 * answer exactly as for a wrong token or no session: nothing in a response tells the configuration.
 */
export function usableAdminToken(token: string | undefined, requestId: string): string | null {
  const problem = adminTokenProblem(token);
  if (problem === null) return token!;
  log({ level: "error", request_id: requestId, event: "admin_token_unusable", problem });
  return null;
}

/** Whether `given` is the configured token (false, logged, when that is unusable). */
export async function adminTokenMatches(configured: string | undefined, given: string, requestId: string): Promise<boolean> {
  const token = usableAdminToken(configured, requestId);
  if (token === null) return false;
  return textsEqualInConstantTime(token, given);
}
