// The key store: API keys in a KV namespace, used by the worker (authentication, dashboard) and by
// the command line (scripts/keys.ts) alike.
//
// Layout: "hash:<sha256 of secret>" -> KeyRecord JSON (the one read that authentication makes);
//         "id:<key id>" -> the hash, with the KeyRecord as metadata (so list() needs no more reads).
import {
  type KeyMode,
  digestsEqual,
  displayPrefix,
  hashSecret,
  newKeyId,
  newSecret,
} from "./secret.ts";

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

export type KeyState = "active" | "grace" | "expired" | "revoked";

export interface CreatedKey {
  record: KeyRecord;
  /** Shown once, never stored. */
  secret: string;
}

/** How long an isolate trusts what it read (part of the revocation bound stated in the README). */
export const ISOLATE_KEY_TTL_MS = 10_000;
/** KV's edge cache for key reads (its minimum). */
export const KV_KEY_CACHE_TTL_SECONDS = 30;
export const DEFAULT_GRACE_SECONDS = 86_400;

const isolateKeys = new Map<string, { record: KeyRecord | null; until: number }>();

/** Forgets what this isolate cached about keys (tests; the dashboard after a change). */
export function clearIsolateKeyCache(): void {
  isolateKeys.clear();
}

export class KeyStore {
  constructor(
    private readonly kv: KVNamespace,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: { name: string; mode: KeyMode; expiresInSeconds?: number | null; replaces?: string | null }): Promise<CreatedKey> {
    const secret = newSecret(input.mode);
    const now = this.now();
    const record: KeyRecord = {
      id: newKeyId(),
      name: input.name,
      mode: input.mode,
      prefix: displayPrefix(secret),
      hash: await hashSecret(secret),
      created_at: now.toISOString(),
      expires_at:
        input.expiresInSeconds != null ? new Date(now.getTime() + input.expiresInSeconds * 1000).toISOString() : null,
      revoked_at: null,
      replaces: input.replaces ?? null,
      replaced_by: null,
    };
    await this.save(record);
    return { record, secret };
  }

  /** The record a secret belongs to, or null: one KV read, cached in the isolate for a few seconds. */
  async findBySecret(secret: string): Promise<KeyRecord | null> {
    const hash = await hashSecret(secret);
    const cached = isolateKeys.get(hash);
    const nowMs = Date.now();
    if (cached && cached.until > nowMs) return cached.record;
    const record = await this.kv.get<KeyRecord>(`hash:${hash}`, { type: "json", cacheTtl: KV_KEY_CACHE_TTL_SECONDS });
    const found = record && digestsEqual(record.hash, hash) ? record : null;
    isolateKeys.set(hash, { record: found, until: nowMs + ISOLATE_KEY_TTL_MS });
    return found;
  }

  async get(id: string): Promise<KeyRecord | null> {
    const { metadata } = await this.kv.getWithMetadata<KeyRecord>(`id:${id}`);
    return metadata ?? null;
  }

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

  /** A new key of the same name and mode; the old one keeps working for graceSeconds (0: stops at once). */
  async roll(id: string, graceSeconds = DEFAULT_GRACE_SECONDS, expiresInSeconds?: number | null): Promise<CreatedKey | null> {
    const old = await this.get(id);
    if (!old) return null;
    const created = await this.create({ name: old.name, mode: old.mode, expiresInSeconds, replaces: old.id });
    const graceEnd = new Date(this.now().getTime() + graceSeconds * 1000).toISOString();
    await this.save({
      ...old,
      expires_at: old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd,
      replaced_by: created.record.id,
    });
    return created;
  }

  async revoke(id: string): Promise<KeyRecord | null> {
    const old = await this.get(id);
    if (!old) return null;
    if (old.revoked_at) return old;
    const revoked = { ...old, revoked_at: this.now().toISOString() };
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

  private async save(record: KeyRecord): Promise<void> {
    await Promise.all([
      this.kv.put(`hash:${record.hash}`, JSON.stringify(record)),
      this.kv.put(`id:${record.id}`, record.hash, { metadata: record }),
    ]);
    isolateKeys.delete(record.hash);
  }
}

/** A record as shown to administrators: everything but the hash. */
export function publicRecord(record: KeyRecord, state: KeyState) {
  const { hash: _hash, ...rest } = record;
  return { ...rest, status: state };
}
