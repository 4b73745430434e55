// The key store: API keys in a KV namespace, used by the worker (authentication, dashboard) and by
// the command line (scripts/keys.ts) alike. It never holds a secret, only its SHA-256.
//
// Layout: "hash:<sha256 of secret>" -> KeyRecord JSON (the one read that authentication makes);
//         "id:<key id>" -> the hash, with the KeyRecord as metadata (so list() needs no more reads).
import { errors } from "../lib/errors.ts";
import { cachedKey, forgetKey, ISOLATE_KEY_TTL_MS, rememberKey } from "./isolate-cache.ts";
import { checkMode, checkName, checkSeconds } from "./rules.ts";
import {
  type KeyMode,
  digestsEqual,
  displayPrefix,
  hashSecret,
  KEY_ID_PATTERN,
  newKeyId,
  newSecret,
} from "./secret.ts";

export { clearIsolateKeyCache, ISOLATE_KEY_TTL_MS } from "./isolate-cache.ts";
export { MAX_LIFETIME_SECONDS, MAX_NAME_LENGTH } from "./rules.ts";

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
}

/** "grace": rolled, still working until its expires_at. */
export type KeyState = "active" | "grace" | "expired" | "revoked";

export interface CreatedKey {
  record: KeyRecord;
  /** Shown once, never stored. */
  secret: string;
}

/** KV's edge cache for key reads (its minimum): a production read may be this stale. */
export const KV_KEY_CACHE_TTL_SECONDS = 30;
/** Workers KV's own propagation of a write to other locations, as Cloudflare documents it. */
export const KV_PROPAGATION_SECONDS = 60;
/** Revoking or rolling reaches every request locally within this (KV's cacheTtl has no effect locally). */
export const REVOCATION_BOUND_LOCAL_SECONDS = ISOLATE_KEY_TTL_MS / 1000;
/** ... and in production within this: isolate cache + KV edge cache + KV propagation (about 100 s). */
export const REVOCATION_BOUND_PRODUCTION_SECONDS =
  ISOLATE_KEY_TTL_MS / 1000 + KV_KEY_CACHE_TTL_SECONDS + KV_PROPAGATION_SECONDS;
export const DEFAULT_GRACE_SECONDS = 86_400;

export class KeyStore {
  constructor(
    private readonly kv: KVNamespace,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Makes a key. Throws a 422 ApiError for a bad name, mode or expiry. */
  async create(input: {
    name: string;
    mode: KeyMode;
    expiresInSeconds?: number | null;
    replaces?: string | null;
  }): Promise<CreatedKey> {
    const name = checkName(input.name);
    const mode = checkMode(input.mode);
    const expiresIn = input.expiresInSeconds == null ? null : checkSeconds("expires_in", input.expiresInSeconds, 1);
    const secret = newSecret(mode);
    const now = this.now();
    const record: KeyRecord = {
      id: newKeyId(),
      name,
      mode,
      prefix: displayPrefix(secret),
      hash: await hashSecret(secret),
      created_at: now.toISOString(),
      expires_at: expiresIn === null ? null : new Date(now.getTime() + expiresIn * 1000).toISOString(),
      revoked_at: null,
      replaces: input.replaces ?? null,
      replaced_by: null,
    };
    await this.save(record);
    return { record, secret };
  }

  /**
   * The record a secret belongs to, or null. At most one KV read; what it read is trusted by this
   * isolate for ISOLATE_KEY_TTL_MS (found or not), so most requests make none.
   */
  async findBySecret(secret: string): Promise<KeyRecord | null> {
    const hash = await hashSecret(secret);
    const nowMs = this.now().getTime();
    const cached = cachedKey(hash, nowMs);
    if (cached !== undefined) return cached;
    const record = await this.kv.get<KeyRecord>(`hash:${hash}`, { type: "json", cacheTtl: KV_KEY_CACHE_TTL_SECONDS });
    // The read is by hash already; the comparison guards against a record stored under the wrong key.
    const found = record && typeof record.hash === "string" && digestsEqual(record.hash, hash) ? record : null;
    rememberKey(hash, found, nowMs);
    return found;
  }

  /** The record of a key id, or null (also for an id that cannot be one, without a read). */
  async get(id: string): Promise<KeyRecord | null> {
    if (!KEY_ID_PATTERN.test(id)) return null;
    const { metadata } = await this.kv.getWithMetadata<KeyRecord>(`id:${id}`);
    return metadata ?? null;
  }

  /** Every key, oldest first, in one list() call per 1000 keys. */
  async list(): Promise<KeyRecord[]> {
    const records: KeyRecord[] = [];
    let cursor: string | undefined;
    do {
      const page: KVNamespaceListResult<KeyRecord> = await this.kv.list<KeyRecord>({ prefix: "id:", cursor });
      for (const k of page.keys) if (k.metadata) records.push(k.metadata);
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return records.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /**
   * A new key of the same name and mode; the old one keeps working for graceSeconds (0: stops at
   * once, never later than its own expiry). Null for an unknown id; a 409 ApiError for a key that is
   * not active (revoked, expired, or already rolled: roll its replacement instead); a 422 for a bad grace.
   */
  async roll(id: string, graceSeconds = DEFAULT_GRACE_SECONDS, expiresInSeconds?: number | null): Promise<CreatedKey | null> {
    const grace = checkSeconds("grace", graceSeconds, 0);
    const old = await this.get(id);
    if (!old) return null;
    const state = this.stateOf(old);
    if (state !== "active") {
      const why = state === "grace" ? `already rolled (its replacement is ${old.replaced_by})` : state;
      throw errors.conflict(`Key ${id} is ${why}: only an active key can be rolled`);
    }
    const created = await this.create({ name: old.name, mode: old.mode, expiresInSeconds, replaces: old.id });
    const graceEnd = new Date(this.now().getTime() + grace * 1000).toISOString();
    await this.save({
      ...old,
      expires_at: old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd,
      replaced_by: created.record.id,
    });
    return created;
  }

  /** Revokes at once; revoking again keeps the first time (and rewrites both entries, healing a half-done one). */
  async revoke(id: string): Promise<KeyRecord | null> {
    const old = await this.get(id);
    if (!old) return null;
    const revoked = { ...old, revoked_at: old.revoked_at ?? this.now().toISOString() };
    await this.save(revoked);
    return revoked;
  }

  stateOf(record: KeyRecord): KeyState {
    const now = this.now().toISOString();
    if (record.revoked_at && record.revoked_at <= now) return "revoked";
    if (record.expires_at && record.expires_at <= now) return "expired";
    if (record.replaced_by && record.expires_at) return "grace";
    return "active";
  }

  /**
   * The authentication entry first, then the listing entry: if the second write fails, a revocation
   * has still taken effect, and a new key whose creation threw was never given to anyone.
   */
  private async save(record: KeyRecord): Promise<void> {
    await this.kv.put(`hash:${record.hash}`, JSON.stringify(record));
    forgetKey(record.hash);
    await this.kv.put(`id:${record.id}`, record.hash, { metadata: record });
  }
}

/** A record as shown to administrators: everything but the hash. */
export function publicRecord(record: KeyRecord, state: KeyState) {
  const { hash: _hash, ...rest } = record;
  return { ...rest, status: state };
}
