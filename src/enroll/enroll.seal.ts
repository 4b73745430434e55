// The new key's secret kept for the 10-minute retry window (docs/specification.md section 9): AES-GCM under a
// key derived with HKDF-SHA-256 from the code itself (never from its stored hash), so that nobody who reads D1
// can recover it without the code. Web Crypto only.
import { decodeBase64Url, encodeBase64Url } from "hono/utils/encode";

const INFO = new TextEncoder().encode("enrollment-secret-v1");

export interface Sealed {
  sealed: string;
  salt: string;
  iv: string;
}

async function keyOf(code: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(code), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt, info: INFO },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** `code` in its canonical form. */
export async function seal(code: string, secret: string): Promise<Sealed> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const box = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await keyOf(code, salt),
    new TextEncoder().encode(secret),
  );
  return { sealed: encodeBase64Url(box), salt: encodeBase64Url(salt.buffer), iv: encodeBase64Url(iv.buffer) };
}

/** Null when the box does not open with this code (it was made with another). */
export async function unseal(code: string, box: Sealed): Promise<string | null> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: decodeBase64Url(box.iv) },
      await keyOf(code, decodeBase64Url(box.salt)),
      decodeBase64Url(box.sealed),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
