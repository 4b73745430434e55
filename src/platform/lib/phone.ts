// The one place that normalizes an Indian phone number (docs/specification.md section 5, GET /orders).

const SEPARATORS = /[\s\-.()[\]]/g;

/** The lookup key; a valid number only when it is 10 digits (isTenDigits). */
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

export function isIndianMobile(normalized: string): boolean {
  return /^[6-9]\d{9}$/.test(normalized);
}
