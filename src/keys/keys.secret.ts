// API key secrets: shown once, only their SHA-256 kept. Web Crypto only, so it runs in workerd and Node alike.
import { sha256Hex } from "../platform/lib/crypto.ts";

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 43 base62 characters carry 256 bits (62^43 > 2^256). */
export const SECRET_RANDOM_LENGTH = 43;
export const KEY_MODES = ["test", "live"] as const;
export type KeyMode = (typeof KEY_MODES)[number];

/** The keys made here have 43 characters; the upper bound keeps a hostile header from costing a long hash. */
export const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,128}$/;
/** Checked before any read, so that junk costs no KV work. */
export const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16}$/;

export function isKeyMode(value: unknown): value is KeyMode {
  return (KEY_MODES as readonly unknown[]).includes(value);
}

/** Rejection sampling: no modulo bias. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // getRandomValues fills at most 64 KiB at a time.
    const bytes = crypto.getRandomValues(new Uint8Array(Math.min(65_536, (length - out.length) * 2)));
    for (const b of bytes) {
      // 248 = 4 * 62: bytes at or above it would favour the first eight characters.
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

/** Secrets carry 256 random bits, so a fast hash is enough. */
export function hashSecret(secret: string): Promise<string> {
  return sha256Hex(secret);
}

/** What may be shown of a key: mode prefix and four random characters (24 of its 256 bits). */
export function displayPrefix(secret: string): string {
  const match = /^(sk_(?:test|live)_)([0-9A-Za-z]{4})/.exec(secret);
  if (!match) throw new TypeError("not an API key secret");
  return `${match[1]}${match[2]}…`;
}

/** No data-dependent early exit (timing). */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
