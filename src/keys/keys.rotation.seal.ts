// The successor's secret kept for the retry of a lost rotate answer (docs/specification.md section 9):
// AES-GCM under a key derived with HKDF-SHA-256 from the old key's secret, which the service never
// stores, so nobody who reads D1 (administrators included) can open it. Web Crypto only.

const UTF8 = new TextEncoder();
const VERSION = "v1";

function toBase64Url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Bound to both ids (info and associated data): a sealed value moved to another row does not open. */
async function sealingKey(oldSecret: string, salt: Uint8Array<ArrayBuffer>, oldId: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", UTF8.encode(oldSecret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt, info: UTF8.encode(`key rotation successor ${oldId}`) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function sealSuccessorSecret(
  oldSecret: string,
  ids: { oldId: string; successorId: string },
  successorSecret: string,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await sealingKey(oldSecret, salt, ids.oldId);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: UTF8.encode(`${ids.oldId}>${ids.successorId}`) },
    key,
    UTF8.encode(successorSecret),
  );
  return [VERSION, toBase64Url(salt), toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join(".");
}

/** Null when it does not open with this secret (another key's secret, a damaged or moved value). */
export async function openSuccessorSecret(
  oldSecret: string,
  ids: { oldId: string; successorId: string },
  sealed: string,
): Promise<string | null> {
  const [version, salt, iv, data] = sealed.split(".");
  if (version !== VERSION || !salt || !iv || !data) return null;
  try {
    const key = await sealingKey(oldSecret, fromBase64Url(salt), ids.oldId);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: UTF8.encode(`${ids.oldId}>${ids.successorId}`) },
      key,
      fromBase64Url(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
