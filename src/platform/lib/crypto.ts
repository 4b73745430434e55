// The one home of the service's hashing: SHA-256 as bytes or hex, and a constant-time comparison.

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

/** Cut to `bytes` bytes when given. */
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
