// The mobile_number rule of POST /customers/create (docs/specification.md section 5). A control character
// is refused, never trimmed away: stored, it would be served to every app and break displays and exports.
import { isIndianMobile, isTenDigits, normalizePhone } from "../../platform/lib/phone.ts";

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
    return {
      problem: "must be a 10-digit mobile number (spaces, hyphens, dots, brackets and a +91 or 0 prefix are allowed)",
    };
  }
  if (!isIndianMobile(phoneKey))
    return { problem: "must be an Indian mobile number: its 10 digits start with 6, 7, 8 or 9" };
  return { number, phoneKey };
}
