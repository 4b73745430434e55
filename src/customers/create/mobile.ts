// The mobile_number rule of POST /customers/create (docs/specification.md section 5), in its order:
// a control character anywhere is refused, not trimmed away (a tab or line break stored in a
// customer's number would be served to every app and break their displays and exports); then the
// value is trimmed of spaces; then it may be 32 characters at most (no stored number grows without
// bound); then its normalized digits must be an Indian mobile number. What passes is stored,
// served and fingerprinted for Idempotency-Key as trimmed.
import { isIndianMobile, isTenDigits, normalizePhone } from "../../lib/phone.ts";

export const MAX_MOBILE_LENGTH = 32;

/** Unicode's control characters (Cc: C0, DEL, C1) and the line and paragraph separators. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

export type MobileCheck = { number: string; phoneKey: string } | { problem: string };

export function checkMobile(given: string): MobileCheck {
  if (CONTROL.test(given)) {
    return { problem: "must not contain control characters or line breaks (tab, CR, LF, U+2028, U+2029 and the like)" };
  }
  const number = given.trim();
  if (number === "") return { problem: "must not be empty" };
  if ([...number].length > MAX_MOBILE_LENGTH) return { problem: `must be at most ${MAX_MOBILE_LENGTH} characters` };
  const phoneKey = normalizePhone(number);
  if (!isTenDigits(phoneKey)) {
    return { problem: "must be a 10-digit mobile number (spaces, hyphens, dots, brackets and a +91 or 0 prefix are allowed)" };
  }
  if (!isIndianMobile(phoneKey)) return { problem: "must be an Indian mobile number: its 10 digits start with 6, 7, 8 or 9" };
  return { number, phoneKey };
}
