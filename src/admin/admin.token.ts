// The administrator token (docs/specification.md section 2, "The administrator's sign-in"). An unusable one closes the
// admin side; only the log says why.
import { textsEqualInConstantTime } from "../platform/lib/crypto.ts";
import { log } from "../platform/lib/log.ts";

export const MIN_ADMIN_TOKEN_LENGTH = 32;

export function adminTokenProblem(token: string | undefined): string | null {
  if (!token) return "ADMIN_TOKEN is not set";
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) return `ADMIN_TOKEN is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters`;
  return null;
}

/** Null when unusable: callers answer as for a wrong token, so that no response tells the configuration. */
export function usableAdminToken(token: string | undefined, requestId: string): string | null {
  const problem = adminTokenProblem(token);
  if (problem === null) return token!;
  log({ level: "error", request_id: requestId, event: "admin_token_unusable", problem });
  return null;
}

export async function adminTokenMatches(
  configured: string | undefined,
  given: string,
  requestId: string,
): Promise<boolean> {
  const token = usableAdminToken(configured, requestId);
  if (token === null) return false;
  return textsEqualInConstantTime(token, given);
}
