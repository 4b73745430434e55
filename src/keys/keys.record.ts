// A key record and the types around it, shared by every module of src/keys/: the store
// (./keys.store.ts), its D1 records (./keys.records.ts), the KV copy (./keys.copy.ts), the isolate cache, the
// legacy carry-over, the audit log and the usage reads. Types only, importing only the types of a
// key's mode and scopes, so that none of those modules needs to import the store.
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
  /** The key this one replaced when it was made by rolling. */
  replaces: string | null;
  replaced_by: string | null;
  /** read, write or both, in that order (./keys.scopes.ts). */
  scopes: Scope[];
  /** The sales agent whose book the key is bound to, or null. */
  agent_id: number | null;
}

/** "grace": rolled, still working until its expires_at. */
export type KeyState = "active" | "grace" | "expired" | "revoked";

/** What a change leaves: the record as D1 has it after the change, and the state of its KV copy. */
export interface ChangedKey {
  record: KeyRecord;
  /**
   * True when the copy that authentication reads was not confirmed (its write failed, or the record
   * kept changing): the change stands, and the 5-minute job rewrites the copy.
   */
  copyPending: boolean;
}

export interface CreatedKey extends ChangedKey {
  /** Shown once, never stored. */
  secret: string;
}

/** What the store needs of D1: a database binding or a session (prepare and batch). */
export type KeyDatabase = Pick<D1Database, "prepare" | "batch">;
