// The key store, used by the worker (authentication, dashboard, admin API), the command line
// (scripts/keys.ts) and npm start's demo key alike. It never holds a secret, only its SHA-256.
//
// The system of record is D1 (api_keys, ./keys.records.ts): every change is one conditional, atomic
// batch there. Authentication reads only the KV copy, written after the D1 batch commits:
//   "hash:<sha256 of secret>" -> KeyRecord JSON.
// The copy follows the record (docs/specification.md section 2): each change marks the copy pending
// in its own batch; the writer writes the copy from the record as the batch left it, re-reads the
// record, writes again while it changed meanwhile, and clears the mark only for the version it wrote.
// A copy left pending (a failed KV write) is rewritten by the 5-minute job (rewritePendingCopies).
// Before D1 held them, records lived only in KV, with a listing entry "id:<key id>" (the KeyRecord
// as its metadata). The first get/list/roll/revoke carries any such entries over into D1 and then
// deletes them; their "hash:" entries stay, so those keys keep working throughout.
import { errors } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";
import { type AuditEntry, checkActor, checkAuditLimit, DEFAULT_AUDIT_LIMIT, type KeyActor, readAudit } from "./keys.audit.ts";
import { fromCopy, type StoredCopy } from "./keys.copy.ts";
import { drainCarriedOver, legacyRecords } from "./keys.legacy.ts";
import { cachedKey, forgetKey, ISOLATE_KEY_TTL_MS, rememberKey } from "./keys.isolate-cache.ts";
import type { ChangedKey, CreatedKey, KeyDatabase, KeyRecord, KeyState } from "./keys.record.ts";
import { KeyRecords, notActive, type VersionedRecord } from "./keys.records.ts";
import { checkNewKey, checkSeconds } from "./keys.rules.ts";
import type { Scope } from "./keys.scopes.ts";
import { type KeyWithUsage, readUsage } from "./keys.usage-read.ts";
import {
  type KeyMode,
  digestsEqual,
  displayPrefix,
  hashSecret,
  KEY_ID_PATTERN,
  newKeyId,
  newSecret,
} from "./keys.secret.ts";

// Kept for src/admin/, src/dashboard/ and src/platform/env.ts, which import these from the store; everything
// else imports them from where they are defined (./keys.record.ts, ./keys.audit.ts, ./keys.usage-read.ts).
export type { KeyRecord } from "./keys.record.ts";
export type { AuditEntry, KeyActor } from "./keys.audit.ts";
export type { KeyWithUsage } from "./keys.usage-read.ts";

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
/**
 * Writes of one copy that a writer makes while the record keeps changing under it; past them, it
 * leaves the copy marked pending (each of those changes has a writer of its own, and the job follows).
 */
export const COPY_WRITE_ROUNDS = 4;
/** Pending copies that one run of the job rewrites at most (each is a KV write and a D1 batch). */
export const PENDING_COPIES_PER_RUN = 200;
/** How often the job runs (wrangler.toml [triggers]): with KV's propagation, the bound on a failed write. */
export const COPY_JOB_INTERVAL_SECONDS = 300;

/** One run of the job: copies written and confirmed, and copies it tried and left pending. */
export interface PendingCopiesResult {
  copies_rewritten: number;
  copies_still_pending: number;
}

/** How a writer left a copy: confirmed current, or pending and why. */
type CopyOutcome = "confirmed" | "kv_write_failed" | "confirm_failed" | "record_kept_changing";

export class KeyStore {
  private readonly records: KeyRecords;

  constructor(
    private readonly kv: KVNamespace,
    private readonly db: KeyDatabase,
    private readonly now: () => Date = () => new Date(),
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
    const { record, secret } = await newKey({ name, mode, expiresAt, replaces: null, scopes, agentId }, now);
    const inserted = await this.records.insert(record, who);
    if (!inserted) {
      throw errors.validation([{ field: "agent_id", message: `must be an existing sales agent's id: there is no sales agent ${agentId}` }]);
    }
    const copy = await this.followRecord(inserted);
    return { record: inserted.record, secret, copyPending: copy !== "confirmed" };
  }

  /**
   * The record a secret belongs to, or null: KV only, never D1. At most one KV read; what it read is
   * trusted by this isolate for ISOLATE_KEY_TTL_MS (found or not), so most requests make none.
   */
  async findBySecret(secret: string): Promise<KeyRecord | null> {
    const hash = await hashSecret(secret);
    const nowMs = this.now().getTime();
    const cached = cachedKey(hash, nowMs);
    if (cached !== undefined) return cached;
    const stored = await this.kv.get<StoredCopy>(`hash:${hash}`, { type: "json", cacheTtl: KV_KEY_CACHE_TTL_SECONDS });
    // The read is by hash already; the comparison guards against a record stored under the wrong key.
    const found = stored && typeof stored.hash === "string" && digestsEqual(stored.hash, hash) ? fromCopy(stored) : null;
    rememberKey(hash, found, nowMs);
    return found;
  }

  /** The record of a key id, or null (also for an id that cannot be one, without a read). */
  async get(id: string): Promise<KeyRecord | null> {
    if (!KEY_ID_PATTERN.test(id)) return null;
    await this.carryOver();
    return this.records.get(id);
  }

  /** The record of a key id and whether its copy is marked pending, or null (as get). */
  async getWithCopy(id: string): Promise<ChangedKey | null> {
    if (!KEY_ID_PATTERN.test(id)) return null;
    await this.carryOver();
    const found = await this.records.getVersioned(id);
    return found && { record: found.record, copyPending: found.pending };
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
   * `copyPending` is true when the copy of either key is left pending.
   */
  async roll(id: string, graceSeconds: number | undefined, actor: KeyActor): Promise<CreatedKey | null> {
    const who = checkActor(actor);
    const grace = checkSeconds("grace", graceSeconds ?? DEFAULT_GRACE_SECONDS, 0);
    const old = await this.get(id);
    if (!old) return null;
    this.assertActive(old);
    const now = this.now();
    const { record, secret } = await newKey(
      { name: old.name, mode: old.mode, expiresAt: old.expires_at, replaces: old.id, scopes: old.scopes, agentId: old.agent_id },
      now,
    );
    const graceEnd = new Date(now.getTime() + grace * 1000).toISOString();
    const oldExpiresAt = old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd;
    const rolled = await this.records.roll(old, record, oldExpiresAt, now.toISOString(), who);
    if (!rolled) {
      // Another roll, a revocation or the expiry got there first: say which, from the record as it is now.
      const current = await this.records.get(id);
      if (current) this.assertActive(current);
      throw errors.conflict(`Key ${id} changed while it was being rolled; try again`);
    }
    const copies = [await this.followRecord(rolled.next), await this.followRecord(rolled.old)];
    return { record: rolled.next.record, secret, copyPending: copies.some((c) => c !== "confirmed") };
  }

  /**
   * Revokes at once, with its audit entry in the same D1 batch. Revoking again keeps the first time
   * and writes no audit entry (nothing changed), but writes the KV copy again, healing a lost write.
   * Null for an unknown id.
   */
  async revoke(id: string, actor: KeyActor): Promise<ChangedKey | null> {
    const who = checkActor(actor);
    if (!KEY_ID_PATTERN.test(id)) return null;
    await this.carryOver();
    const revoked = await this.records.revoke(id, this.now().toISOString(), who);
    if (!revoked) return null;
    return { record: revoked.record, copyPending: (await this.followRecord(revoked)) !== "confirmed" };
  }

  /**
   * The 5-minute job: writes every copy marked pending again, as its writer would, and clears each
   * mark once a write is confirmed. At most PENDING_COPIES_PER_RUN copies per run, by key id. A KV
   * write or confirmation that fails ends the run (KV or D1 is refusing: the rest would fail too);
   * what is left stays marked for the next run.
   */
  async rewritePendingCopies(): Promise<PendingCopiesResult> {
    const result: PendingCopiesResult = { copies_rewritten: 0, copies_still_pending: 0 };
    const tried = () => result.copies_rewritten + result.copies_still_pending;
    let after = "";
    while (tried() < PENDING_COPIES_PER_RUN) {
      const page = await this.records.pending(after, Math.min(50, PENDING_COPIES_PER_RUN - tried()));
      if (page.length === 0) break;
      for (const row of page) {
        const copy = await this.followRecord(row);
        if (copy === "confirmed") result.copies_rewritten++;
        else result.copies_still_pending++;
        if (copy === "kv_write_failed" || copy === "confirm_failed") return result;
      }
      after = page.at(-1)!.record.id;
    }
    return result;
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

  /**
   * Makes the copy follow the record: writes it from `current` (the record as D1 had it after a
   * change, never one read before), then clears the mark of that version and re-reads the record in
   * one batch; while the record changed meanwhile, writes again (at most COPY_WRITE_ROUNDS times).
   * "confirmed" when a write was confirmed current; otherwise the copy is left marked pending, and
   * the outcome says why.
   */
  private async followRecord(current: VersionedRecord): Promise<CopyOutcome> {
    let row = current;
    const id = row.record.id;
    for (let round = 0; round < COPY_WRITE_ROUNDS; round++) {
      try {
        await this.kv.put(`hash:${row.record.hash}`, JSON.stringify(row.record));
      } catch (err) {
        // A failed put may still have landed, and with an older record than another writer's: mark
        // again (a new version), so that no confirmation of an older write can clear it.
        return this.leavePending(id, "kv_write_failed", err, true);
      }
      forgetKey(row.record.hash);
      let now: VersionedRecord | null;
      try {
        now = await this.records.confirm(id, row.version);
      } catch (err) {
        // The mark is still set, unless the clear committed: then the copy was current when it did.
        return this.leavePending(id, "confirm_failed", err, false);
      }
      if (!now || now.version === row.version) return "confirmed";
      row = now;
    }
    return this.leavePending(id, "record_kept_changing", null, true);
  }

  private async leavePending<R extends Exclude<CopyOutcome, "confirmed">>(id: string, reason: R, err: unknown, markAgain: boolean): Promise<R> {
    let marked = !markAgain;
    if (markAgain) {
      try {
        await this.records.mark(id);
        marked = true;
      } catch {
        // The change's own mark (or a newer one) may still be set; the warning below says it is not known.
      }
    }
    log({ level: "warn", event: "key_copy_pending", key_id: id, reason, error: err === null ? null : errorName(err), marked });
    return reason;
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
): Promise<Omit<CreatedKey, "copyPending">> {
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
