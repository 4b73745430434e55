// The service's cryptography (Web Crypto only): SHA-256, constant-time comparison, sealing under a derived key.
import { decodeBase64Url, encodeBase64Url } from "hono/utils/encode";

const UTF8 = new TextEncoder();
// Built once, not per call: authentication hashes the secret of every request.
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export async function sha256(text: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", UTF8.encode(text)));
}

export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX[byte];
  return hex;
}

export async function sha256Hex(text: string, bytes?: number): Promise<string> {
  const digest = await sha256(text);
  return toHex(bytes === undefined ? digest : digest.subarray(0, bytes));
}

/** Workers' constant-time comparison (not in the DOM's SubtleCrypto, which the node-side checks also see). */
type TimingSafeSubtle = {
  timingSafeEqual(a: ArrayBufferView | ArrayBuffer, b: ArrayBufferView | ArrayBuffer): boolean;
};

/** Both are hashed first, so that not even their lengths leak. */
export async function textsEqualInConstantTime(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([sha256(a), sha256(b)]);
  return (crypto.subtle as unknown as TimingSafeSubtle).timingSafeEqual(x, y);
}

/** A value sealed by seal(): base64url ciphertext, HKDF salt and AES-GCM nonce. */
export interface Sealed {
  sealed: string;
  salt: string;
  iv: string;
}

/** What a sealed value is bound to: HKDF's info, and AES-GCM's associated data when given. */
export interface SealBinding {
  info: string;
  associatedData?: string;
}

async function sealingKey(secret: string, salt: Uint8Array<ArrayBuffer>, info: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", UTF8.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt, info: UTF8.encode(info) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function gcm(iv: Uint8Array<ArrayBuffer>, binding: SealBinding) {
  const aad = binding.associatedData;
  return { name: "AES-GCM", iv, ...(aad === undefined ? {} : { additionalData: UTF8.encode(aad) }) };
}

/** `plain` under AES-GCM with a key derived by HKDF-SHA-256 from `secret`, which the service must never store:
 * whoever reads D1 cannot open it without that secret (docs/specification.md section 9). */
export async function seal(secret: string, plain: string, binding: SealBinding): Promise<Sealed> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const box = await crypto.subtle.encrypt(
    gcm(iv, binding),
    await sealingKey(secret, salt, binding.info),
    UTF8.encode(plain),
  );
  return { sealed: encodeBase64Url(box), salt: encodeBase64Url(salt.buffer), iv: encodeBase64Url(iv.buffer) };
}

/** Null when it does not open: another secret or binding, or a damaged value. */
export async function unseal(secret: string, box: Sealed, binding: SealBinding): Promise<string | null> {
  try {
    const key = await sealingKey(secret, decodeBase64Url(box.salt), binding.info);
    const plain = await crypto.subtle.decrypt(gcm(decodeBase64Url(box.iv), binding), key, decodeBase64Url(box.sealed));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
