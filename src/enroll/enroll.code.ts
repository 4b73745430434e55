// A code (docs/specification.md section 9): 80 random bits as 16 Crockford base32 characters, XXXX-XXXX-XXXX-XXXX,
// read in any case, with or without dashes, look-alikes (I, L, O) as the digits a person copying it would mean.
import { sha256Hex } from "../platform/lib/crypto.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 16;
const CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{16}$/;

export function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = "";
  for (let i = CODE_LENGTH - 1; i >= 0; i--) out += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return formatCode(out);
}

export function formatCode(normalized: string): string {
  return normalized.match(/.{4}/g)!.join("-");
}

/** The code's canonical form (16 characters), or null when the text cannot be a code at all. */
export function normalizeCode(text: string): string | null {
  const plain = text.replaceAll("-", "").toUpperCase().replace(/[IL]/g, "1").replaceAll("O", "0");
  return CODE_PATTERN.test(plain) ? plain : null;
}

/** What D1 keeps of a code: 80 random bits make a plain SHA-256 enough. */
export function hashCode(normalized: string): Promise<string> {
  return sha256Hex(normalized);
}
