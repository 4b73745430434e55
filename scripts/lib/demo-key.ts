// The demo API key that `npm start` prints. The key store keeps only hashes, so a secret can be shown
// only when it is made: each start rolls the previous demo key (which keeps working for the default
// grace of 24 hours) or makes the first one. No secret is ever written to disk.
import type { CreatedKey, KeyRecord } from "../../src/keys/keys.record.ts";
import { DEFAULT_GRACE_SECONDS, KeyStore } from "../../src/keys/keys.store.ts";

export const DEMO_KEY_NAME = "demo";
export const DEMO_KEY_MODE = "test";
/** Who the key audit log names for the demo key's changes. */
const START = { actor: "start" } as const;

export interface DemoKey extends CreatedKey {
  /** The key this one replaced, now in its grace period; null for the first demo key. */
  replaced: KeyRecord | null;
}

export async function issueDemoKey(keys: KeyStore): Promise<DemoKey> {
  const current = (await keys.list())
    .filter((k) => k.name === DEMO_KEY_NAME && k.mode === DEMO_KEY_MODE && keys.stateOf(k) === "active")
    .at(-1);
  if (current) {
    const rolled = await keys.roll(current.id, DEFAULT_GRACE_SECONDS, START);
    if (rolled) return { ...rolled, replaced: current };
  }
  return { ...(await keys.create({ name: DEMO_KEY_NAME, mode: DEMO_KEY_MODE }, START)), replaced: null };
}
