// API key secrets: generation and hashing. The secret is shown once; only its SHA-256 is kept.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 43 base62 characters carry 256 bits. */
export const SECRET_RANDOM_LENGTH = 43;
export const KEY_MODES = ["test", "live"] as const;
export type KeyMode = (typeof KEY_MODES)[number];

/** sk_test_ or sk_live_ and at least 32 base62 characters, nothing else (no whitespace anywhere). */
export const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,}$/;

/** Uniformly random base62 text from crypto.getRandomValues (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += BASE62.charAt(b % 62);
    }
  }
  return out;
}

export function newSecret(mode: KeyMode): string {
  return `sk_${mode}_${randomBase62(SECRET_RANDOM_LENGTH)}`;
}

export function newKeyId(): string {
  return `key_${randomBase62(16)}`;
}

export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What may be shown of a key: its mode prefix and the first four random characters. */
export function displayPrefix(secret: string): string {
  return `${secret.slice(0, secret.indexOf("_", 3) + 5)}…`;
}

/** Equal-length hex digests compared without a data-dependent early exit. */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
