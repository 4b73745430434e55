// The key store, used by the worker (authentication, dashboard, admin API), the command line
// (scripts/keys.ts) and npm start's demo key alike. It never holds a secret, only its SHA-256.
//
// The system of record is D1 (api_keys, ./records.ts): every change is one conditional, atomic
// batch there. Authentication reads only the KV copy, written after the D1 batch commits:
//   "hash:<sha256 of secret>" -> KeyRecord JSON.
// Before D1 held them, records lived only in KV, with a listing entry "id:<key id>" (the KeyRecord
// as its metadata). The first get/list/roll/revoke carries any such entries over into D1 and then
// deletes them; their "hash:" entries stay, so those keys keep working throughout.
import { errors } from "../lib/errors.ts";
import { type AuditEntry, checkActor, checkAuditLimit, DEFAULT_AUDIT_LIMIT, type KeyActor, readAudit } from "./audit.ts";
import { fromCopy, type StoredCopy } from "./copy.ts";
import { drainCarriedOver, legacyRecords } from "./legacy.ts";
import { cachedKey, forgetKey, ISOLATE_KEY_TTL_MS, rememberKey } from "./isolate-cache.ts";
import type { CreatedKey, KeyDatabase, KeyRecord, KeyState } from "./record.ts";
import { KeyRecords, notActive } from "./records.ts";
import { checkNewKey, checkSeconds } from "./rules.ts";
import type { Scope } from "./scopes.ts";
import { type KeyWithUsage, readUsage } from "./usage-read.ts";
import {
  type KeyMode,
  digestsEqual,
  displayPrefix,
  hashSecret,
  KEY_ID_PATTERN,
  newKeyId,
  newSecret,
} from "./secret.ts";

// Kept for src/admin/, src/dashboard/ and src/env.ts, which import these from the store; everything
// else imports them from where they are defined (./record.ts, ./audit.ts, ./usage-read.ts).
export type { KeyRecord } from "./record.ts";
export type { AuditEntry, KeyActor } from "./audit.ts";
export type { KeyWithUsage } from "./usage-read.ts";

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
  private readonly records: KeyRecords;

  constructor(
    private readonly kv: KVNamespace,
    private readonly db: KeyDatabase,
    private readonly now: () => Date = () => new Date(),
    /** How long this isolate trusts a record it read (KEY_CACHE_SECONDS, keyCacheTtlMs). */
    private readonly keyCacheTtlMs = ISOLATE_KEY_TTL_MS,
  ) {
    this.records = new KeyRecords(db);
  }

  /**
   * Makes a key, with its audit entry in the same D1 batch. Throws a 422 ApiError for a bad name,
   * mode, expiry or scopes, or an agent id that names no sales agent (`agent_id`).
   */
  async create(
    input: { name: string; mode: KeyMode; expiresInSeconds?: number | null; scopes?: readonly string[] | null; agentId?: number | null },
    actor: KeyActor,
  ): Promise<CreatedKey> {
    const who = checkActor(actor);
    const { name, mode, expiresInSeconds: expiresIn, scopes, agentId } = checkNewKey(input);
    const now = this.now();
    const expiresAt = expiresIn === null ? null : new Date(now.getTime() + expiresIn * 1000).toISOString();
    const created = await newKey({ name, mode, expiresAt, replaces: null, scopes, agentId }, now);
    if (!(await this.records.insert(created.record, who))) {
      throw errors.validation([{ field: "agent_id", message: `must be an existing sales agent's id: there is no sales agent ${agentId}` }]);
    }
    await this.writeCopy(created.record);
    return created;
  }

  /**
   * The record a secret belongs to, or null: KV only, never D1. At most one KV read; what it read is
   * trusted by this isolate for keyCacheTtlMs (found or not), so most requests make none.
   */
  async findBySecret(secret: string): Promise<KeyRecord | null> {
    const hash = await hashSecret(secret);
    const nowMs = this.now().getTime();
    const cached = cachedKey(hash, nowMs);
    if (cached !== undefined) return cached;
    const stored = await this.kv.get<StoredCopy>(`hash:${hash}`, { type: "json", cacheTtl: KV_KEY_CACHE_TTL_SECONDS });
    // The read is by hash already; the comparison guards against a record stored under the wrong key.
    const found = stored && typeof stored.hash === "string" && digestsEqual(stored.hash, hash) ? fromCopy(stored) : null;
    rememberKey(hash, found, nowMs, this.keyCacheTtlMs);
    return found;
  }

  /** The record of a key id, or null (also for an id that cannot be one, without a read). */
  async get(id: string): Promise<KeyRecord | null> {
    if (!KEY_ID_PATTERN.test(id)) return null;
    await this.carryOver();
    return this.records.get(id);
  }

  /** Every key, oldest first. */
  async list(): Promise<KeyRecord[]> {
    await this.carryOver();
    return this.records.list();
  }

  /**
   * Every key, oldest first, with its use: last_used_at, requests in the last 24 and 168 hours and
   * per day for the last 30 days. Two statements in one D1 batch, whatever the number of keys.
   */
  async listWithUsage(): Promise<KeyWithUsage[]> {
    await this.carryOver();
    return readUsage(this.db, this.now());
  }

  /** The newest `limit` audit entries (default 50), newest first; a 422 on `limit` outside 1 to 10000. */
  async audit(limit = DEFAULT_AUDIT_LIMIT): Promise<AuditEntry[]> {
    return readAudit(this.db, checkAuditLimit(limit));
  }

  /**
   * A new key of the same name, mode, scopes, agent and expiry (it never outlives the old key), with
   * the roll's audit entry in the same D1 batch; the old one keeps
   * working for graceSeconds (0: stops at once, never later than its own expiry). Null for an
   * unknown id; a 409 ApiError for a key that is not active (revoked, expired, or already rolled:
   * roll its replacement instead), also when another roll of it commits first; a 422 for a bad grace.
   */
  async roll(id: string, graceSeconds: number | undefined, actor: KeyActor): Promise<CreatedKey | null> {
    const who = checkActor(actor);
    const grace = checkSeconds("grace", graceSeconds ?? DEFAULT_GRACE_SECONDS, 0);
    const old = await this.get(id);
    if (!old) return null;
    this.assertActive(old);
    const now = this.now();
    const created = await newKey(
      { name: old.name, mode: old.mode, expiresAt: old.expires_at, replaces: old.id, scopes: old.scopes, agentId: old.agent_id },
      now,
    );
    const graceEnd = new Date(now.getTime() + grace * 1000).toISOString();
    const oldExpiresAt = old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd;
    if (!(await this.records.roll(old, created.record, oldExpiresAt, now.toISOString(), who))) {
      // Another roll, a revocation or the expiry got there first: say which, from the record as it is now.
      const current = await this.records.get(id);
      if (current) this.assertActive(current);
      throw errors.conflict(`Key ${id} changed while it was being rolled; try again`);
    }
    await this.writeCopy(created.record);
    await this.writeCopy({ ...old, expires_at: oldExpiresAt, replaced_by: created.record.id });
    return created;
  }

  /**
   * Revokes at once, with its audit entry in the same D1 batch. Revoking again keeps the first time
   * and writes no audit entry (nothing changed), but rewrites the KV copy, healing a lost write.
   */
  async revoke(id: string, actor: KeyActor): Promise<KeyRecord | null> {
    const who = checkActor(actor);
    if (!(await this.get(id))) return null;
    const revoked = await this.records.revoke(id, this.now().toISOString(), who);
    if (revoked) await this.writeCopy(revoked);
    return revoked;
  }

  stateOf(record: KeyRecord): KeyState {
    const now = this.now().toISOString();
    if (record.revoked_at && record.revoked_at <= now) return "revoked";
    if (record.expires_at && record.expires_at <= now) return "expired";
    if (record.replaced_by && record.expires_at) return "grace";
    return "active";
  }

  private assertActive(record: KeyRecord): void {
    const state = this.stateOf(record);
    if (state !== "active") throw notActive(record, state);
  }

  /** The copy that authentication reads, written once D1 has committed the record. */
  private async writeCopy(record: KeyRecord): Promise<void> {
    await this.kv.put(`hash:${record.hash}`, JSON.stringify(record));
    forgetKey(record.hash);
  }

  /** Moves records that only KV holds (made before D1 held keys) into D1: one KV list when there are none. */
  private async carryOver(): Promise<void> {
    const legacy = await legacyRecords(this.kv);
    if (legacy.length === 0) return;
    await this.records.insertMissing(legacy);
    await drainCarriedOver(this.kv, legacy);
  }
}

/** A fresh secret and its record. */
async function newKey(
  fields: { name: string; mode: KeyMode; expiresAt: string | null; replaces: string | null; scopes: Scope[]; agentId: number | null },
  now: Date,
): Promise<CreatedKey> {
  const secret = newSecret(fields.mode);
  const record: KeyRecord = {
    id: newKeyId(),
    name: fields.name,
    mode: fields.mode,
    prefix: displayPrefix(secret),
    hash: await hashSecret(secret),
    created_at: now.toISOString(),
    expires_at: fields.expiresAt,
    revoked_at: null,
    replaces: fields.replaces,
    replaced_by: null,
    scopes: fields.scopes,
    agent_id: fields.agentId,
  };
  return { record, secret };
}

/** A record as shown to administrators: everything but the hash (a listing's usage fields included). */
export function publicRecord<R extends KeyRecord>(record: R, state: KeyState): Omit<R, "hash"> & { status: KeyState } {
  const { hash: _hash, ...rest } = record;
  return { ...rest, status: state };
}
