// The one place that normalizes an Indian phone number (docs/specification.md, GET /orders).

const SEPARATORS = /[\s\-.()[\]]/g;

/**
 * Drops spaces, hyphens, dots and brackets, then a leading "+", then the country code "91" of a
 * 12-digit number or the trunk "0" of an 11-digit one. The result is the lookup key; it is a valid
 * number only when it is 10 digits (see isTenDigits).
 */
export function normalizePhone(raw: string): string {
  let n = raw.replace(SEPARATORS, "");
  if (n.startsWith("+")) n = n.slice(1);
  if (/^\d{12}$/.test(n) && n.startsWith("91")) n = n.slice(2);
  else if (/^\d{11}$/.test(n) && n.startsWith("0")) n = n.slice(1);
  return n;
}

export function isTenDigits(normalized: string): boolean {
  return /^\d{10}$/.test(normalized);
}

/** An Indian mobile number: 10 digits, the first 6, 7, 8 or 9. */
export function isIndianMobile(normalized: string): boolean {
  return /^[6-9]\d{9}$/.test(normalized);
}
