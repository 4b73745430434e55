// Why a key is refused (docs/specification.md section 2): fixed texts, so that no answer echoes what
// the caller sent. Authentication and a rotate that finds its key stopped say the same.
import { type ApiError, errors } from "../platform/errors.ts";

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
