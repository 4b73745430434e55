// A key record and the types around it, shared by every module of src/keys/: types only, so that none
// of them needs to import the store.
import type { Scope } from "./keys.scopes.ts";
import type { KeyMode } from "./keys.secret.ts";

export interface KeyRecord {
  id: string;
  name: string;
  mode: KeyMode;
  /** e.g. "sk_test_AbCd…": enough to recognize a key, useless to use it. */
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  replaces: string | null;
  replaced_by: string | null;
  scopes: Scope[];
  agent_id: number | null;
}

/** "grace": rolled, still working until its expires_at. */
export type KeyState = "active" | "grace" | "expired" | "revoked";

export interface ChangedKey {
  record: KeyRecord;
  /** The KV copy was not confirmed: the change stands, and the 5-minute job rewrites the copy. */
  copyPending: boolean;
}

export interface CreatedKey extends ChangedKey {
  /** Shown once, never stored. */
  secret: string;
}

export type KeyDatabase = Pick<D1Database, "prepare" | "batch">;
