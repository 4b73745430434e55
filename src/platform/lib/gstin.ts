// GSTIN: 2-digit state code, 10-character PAN, entity number, "Z", check character.
const PATTERN = /^[0-3][0-9][A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const CHARSET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWEST_STATE_CODE = 1;
const HIGHEST_STATE_CODE = 38;

/** The mod-36 check character for the first 14 characters of a GSTIN. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = CHARSET.indexOf(first14.charAt(i));
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CHARSET.charAt((36 - (sum % 36)) % 36);
}

export type GstinProblem = "length" | "pattern" | "state" | "checksum";

/** Why an (already upper-cased) GSTIN is invalid, or null when it is valid. */
export function gstinProblem(gstin: string): GstinProblem | null {
  if (gstin.length !== 15) return "length";
  if (!PATTERN.test(gstin)) return "pattern";
  const state = Number(gstin.slice(0, 2));
  if (state < LOWEST_STATE_CODE || state > HIGHEST_STATE_CODE) return "state";
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin.charAt(14)) return "checksum";
  return null;
}
