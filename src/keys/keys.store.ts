// The key store, the one judge of key rules for the worker, the command line and npm start alike (docs/specification.md
// section 2). D1 holds the records; authentication reads only the KV copy "hash:<sha256 of secret>".
import { errors } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";
import {
  type AuditEntry,
  checkActor,
  checkAuditLimit,
  DEFAULT_AUDIT_LIMIT,
  type KeyActor,
  readAudit,
} from "./keys.audit.ts";
import { fromCopy, type StoredCopy } from "./keys.copy.ts";
import { drainCarriedOver, legacyRecords } from "./keys.copy.ts";
import { cachedKey, forgetKey, ISOLATE_KEY_TTL_MS, rememberKey } from "./keys.copy.ts";
import type { ChangedKey, CreatedKey, KeyDatabase, KeyRecord, KeyState } from "./keys.record.ts";
import { type KeyClaim, notActive, type VersionedRecord } from "./keys.records.ts";
import { authError } from "./keys.rules.ts";
import {
  alreadyRotated,
  checkRotationFilter,
  DEFAULT_ROTATION_GRACE_SECONDS,
  expiredBecause,
  FIRST_USE_CUT_MS,
  isLateUse,
  rolledNotRotated,
  type RotationRequest,
  rotationDue,
  openSuccessorSecret,
  MIN_SELF_ROTATION_AGE_MS,
  rotatedTooRecently,
  sealSuccessorSecret,
} from "./keys.rotation.ts";
import { DUE_SET_KEY, dueIds, readDueSet, rememberDueSet, writeDueSet } from "./keys.copy.ts";
import { RotationRecords } from "./keys.rotation.records.ts";
import { checkNewKey, checkSeconds } from "./keys.rules.ts";
import { keyState } from "./keys.record.ts";
import type { Scope } from "./keys.rules.ts";
import { type KeyWithUsage, readUsage } from "./keys.usage.ts";
import { type KeyListFilters, type KeyListPage, readKeyListPage } from "./keys.list-page.ts";
import { usageRecorder } from "./keys.usage.ts";
import {
  type KeyMode,
  digestsEqual,
  displayPrefix,
  hashSecret,
  KEY_ID_PATTERN,
  newKeyId,
  newSecret,
} from "./keys.secret.ts";

// Re-exported for users outside src/keys/.
export type { KeyRecord } from "./keys.record.ts";
export type { AuditEntry, KeyActor } from "./keys.audit.ts";
export type { KeyClaim } from "./keys.records.ts";
export type { KeyWithUsage } from "./keys.usage.ts";
export type { KeyListAgent, KeyListCounts, KeyListFilters, KeyListPage, RotationListState } from "./keys.list-page.ts";
export { KEY_STATES, ROTATION_STATES } from "./keys.list-page.ts";

/** KV's edge cache for key reads (its minimum): a production read may be this stale. */
export const KV_KEY_CACHE_TTL_SECONDS = 30;
/** Workers KV's own propagation of a write to other locations, as Cloudflare documents it. */
export const KV_PROPAGATION_SECONDS = 60;
/** Revoking or rolling reaches every request locally within this (KV's cacheTtl has no effect locally). */
export const REVOCATION_BOUND_LOCAL_SECONDS = ISOLATE_KEY_TTL_MS / 1000;
/** ... and in production within this: isolate cache + KV edge cache + KV propagation. */
export const REVOCATION_BOUND_PRODUCTION_SECONDS =
  ISOLATE_KEY_TTL_MS / 1000 + KV_KEY_CACHE_TTL_SECONDS + KV_PROPAGATION_SECONDS;
export const DEFAULT_GRACE_SECONDS = 86_400;
/** Past this many rewrites of a copy whose record keeps changing, leave it pending: each change has its own writer. */
export const COPY_WRITE_ROUNDS = 4;
/** Pending copies that one run of the job rewrites at most (each is a KV write and a D1 batch). */
export const PENDING_COPIES_PER_RUN = 200;
/** Must match wrangler.toml [triggers]: with KV's propagation, the bound on a failed copy write. */
export const COPY_JOB_INTERVAL_SECONDS = 300;

/** Keys of a lineage revoked per read of its working keys, and the most reads one revocation makes. */
export const LINEAGE_CHUNK = 50;
export const MAX_LINEAGE_CHUNKS = 20;

/** Rounds of writing the due set while marks keep changing it: like COPY_WRITE_ROUNDS. */
export const DUE_SET_WRITE_ROUNDS = 3;

export interface RotatedKey extends CreatedKey {
  /** False for the same successor answered again (a retry). */
  created: boolean;
}

export interface PendingCopiesResult {
  copies_rewritten: number;
  copies_still_pending: number;
}

type CopyOutcome = "confirmed" | "kv_write_failed" | "confirm_failed" | "record_kept_changing";

/** A new key as asked for; checkNewKey holds it to the key rules. */
interface NewKeyInput {
  name: string;
  mode: KeyMode;
  expiresInSeconds?: number | null;
  scopes?: readonly string[] | null;
  agentId?: number | null;
}

export class KeyStore {
  private readonly records: RotationRecords;

  constructor(
    private readonly kv: KVNamespace,
    private readonly db: KeyDatabase,
    private readonly now: () => Date = () => new Date(),
    private readonly keyCacheTtlMs = ISOLATE_KEY_TTL_MS,
  ) {
    this.records = new RotationRecords(db);
  }

  async create(input: NewKeyInput, actor: KeyActor): Promise<CreatedKey> {
    const made = await this.insertNew(input, checkActor(actor));
    if (!made) {
      throw errors.validation([
        {
          field: "agent_id",
          message: `must be an existing sales agent's id: there is no sales agent ${input.agentId}`,
        },
      ]);
    }
    return made;
  }

  /**
   * A key made by exchanging an enrollment code (docs/specification.md section 9), under the same rules as any
   * key: `claim` builds, from the new record and its secret, what the key's batch must win first (the code marked
   * used). Null, and nothing written, when the claim does not hold.
   */
  async createClaimed(
    input: NewKeyInput & { agentId: number },
    claim: (record: KeyRecord, secret: string) => Promise<KeyClaim>,
  ): Promise<CreatedKey | null> {
    return this.insertNew(input, checkActor({ actor: "enrollment" }), claim);
  }

  /** Null when its batch inserted nothing: no such sales agent, or the claim did not hold. */
  private async insertNew(
    input: NewKeyInput,
    who: ReturnType<typeof checkActor>,
    claim?: (record: KeyRecord, secret: string) => Promise<KeyClaim>,
  ): Promise<CreatedKey | null> {
    const { name, mode, expiresInSeconds: expiresIn, scopes, agentId } = checkNewKey(input);
    const now = this.now();
    const expiresAt = expiresIn === null ? null : new Date(now.getTime() + expiresIn * 1000).toISOString();
    const { record, secret } = await newKey(
      { name, mode, expiresAt, replaces: null, scopes, agentId, lineageId: null },
      now,
    );
    const inserted = await this.records.insert(record, who, claim && (await claim(record, secret)));
    if (!inserted) return null;
    const copy = await this.followRecord(inserted);
    return { record: inserted.record, secret, copyPending: copy !== "confirmed" };
  }

  /** KV only, never D1: at most one read (with the due set), whose answer this isolate trusts for keyCacheTtlMs. */
  async findBySecret(secret: string): Promise<KeyRecord | null> {
    const hash = await hashSecret(secret);
    const nowMs = this.now().getTime();
    const cached = cachedKey(hash, nowMs);
    if (cached !== undefined) return cached;
    // The fleet's rotation due set comes in the same read (docs/decisions.md).
    const read = await this.kv.get<unknown>([`hash:${hash}`, DUE_SET_KEY], {
      type: "json",
      cacheTtl: KV_KEY_CACHE_TTL_SECONDS,
    });
    rememberDueSet(read.get(DUE_SET_KEY));
    const stored = read.get(`hash:${hash}`) as StoredCopy | null;
    // The read is by hash already; the comparison guards against a record stored under the wrong key.
    const found =
      stored && typeof stored.hash === "string" && digestsEqual(stored.hash, hash) ? fromCopy(stored) : null;
    rememberKey(hash, found, nowMs, this.keyCacheTtlMs);
    return found;
  }

  async get(id: string): Promise<KeyRecord | null> {
    if (!KEY_ID_PATTERN.test(id)) return null;
    return this.records.get(id);
  }

  async getWithCopy(id: string): Promise<ChangedKey | null> {
    if (!KEY_ID_PATTERN.test(id)) return null;
    const found = await this.records.getVersioned(id);
    return found && { record: found.record, copyPending: found.pending };
  }

  async list(): Promise<KeyRecord[]> {
    return this.records.list();
  }

  async listWithUsage(): Promise<KeyWithUsage[]> {
    return readUsage(this.db, this.now());
  }

  /** One page of the dashboard's filtered key list: one page of key records, kept counts, the page's keys' use. */
  async listPage(filters: KeyListFilters, page: { before: string | null; size: number }): Promise<KeyListPage> {
    return readKeyListPage(this.db, filters, page, this.now());
  }

  async audit(limit = DEFAULT_AUDIT_LIMIT): Promise<AuditEntry[]> {
    return readAudit(this.db, checkAuditLimit(limit));
  }

  /**
   * The new key keeps the old one's expiry, so it never outlives it; the old key works for graceSeconds more,
   * never past its own expiry. A 409 also when another roll of it commits first.
   */
  async roll(id: string, graceSeconds: number | undefined, actor: KeyActor): Promise<CreatedKey | null> {
    const who = checkActor(actor);
    const grace = checkSeconds("grace", graceSeconds ?? DEFAULT_GRACE_SECONDS, 0);
    const old = await this.get(id);
    if (!old) return null;
    this.assertActive(old);
    const now = this.now();
    const { record, secret, oldExpiresAt } = await replacementOf(old, grace, now);
    const rolled = await this.records.roll(old, record, oldExpiresAt, now.toISOString(), who);
    if (!rolled) {
      // Another roll, a revocation or the expiry got there first: say which, from the record as it is now.
      const current = await this.records.get(id);
      if (current) this.assertActive(current);
      throw errors.conflict(`Key ${id} changed while it was being rolled; try again`);
    }
    const copies = [await this.followRecord(rolled.next), await this.followRecord(rolled.old)];
    // The roll cancelled a due rotation: the fleet's due set must stop naming the old key.
    if (old.rotation?.state === "due") await this.publishDueSet(await this.records.dueIds());
    return { record: rolled.next.record, secret, copyPending: copies.some((c) => c !== "confirmed") };
  }

  /**
   * Marks the active keys of the filter (ids, mode and agent together narrow it) rotation due, with one
   * audit entry each, then writes the fleet's due set once (docs/specification.md section 9).
   */
  async requestRotation(input: RotationRequest, actor: KeyActor): Promise<{ requested: number }> {
    const who = checkActor(actor);
    const filter = checkRotationFilter(input);
    if (filter.ids) {
      const unknown = await this.records.unknownIds(filter.ids);
      if (unknown.length > 0) {
        throw errors.validation([{ field: "ids", message: `names no key: ${unknown.slice(0, 10).join(", ")}` }]);
      }
    }
    const { requested, due } = await this.records.markDue(filter, this.now().toISOString(), who);
    if (requested > 0) await this.publishDueSet(due);
    return { requested };
  }

  /** How many keys of the filter are due now (the command line's report: marked now or before). */
  async countDue(input: RotationRequest): Promise<number> {
    return this.records.countDue(checkRotationFilter(input));
  }

  /** Whether an answer to this working key carries `Key-Rotation: due`: from the read that found its copy. */
  async rotationDue(record: KeyRecord): Promise<boolean> {
    if (record.rotation) return rotationDue(record, new Set());
    return rotationDue(record, await dueIds(this.kv));
  }

  /**
   * POST /keys/rotate with `secret`, which authenticated: its successor (created), or the same successor
   * again for a retry before the successor's first use. Two racing rotates: one commits, the other
   * reads the record it left and answers the same successor.
   */
  async rotate(copy: KeyRecord, secret: string, graceSeconds?: number): Promise<RotatedKey> {
    const grace = graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
    // Authentication matched `secret` against this hash already.
    const hash = copy.hash;
    for (let attempt = 0; attempt < 2; attempt++) {
      const old = await this.records.getByHash(hash);
      if (!old) throw authError("unknown");
      const again = await this.answerAgain(old, copy, secret);
      if (again) return again;
      const now = this.now();
      // No key breeds a chain of keys: without a rotation due, a key rotates itself only once it is a day old.
      if (old.rotation?.state !== "due" && now.getTime() - Date.parse(old.created_at) < MIN_SELF_ROTATION_AGE_MS) {
        throw rotatedTooRecently(old);
      }
      const { record, secret: nextSecret, oldExpiresAt } = await replacementOf(old, grace, now);
      // With no time left, no retry can come: nothing is kept.
      const sealed =
        oldExpiresAt > now.toISOString()
          ? await sealSuccessorSecret(secret, { oldId: old.id, successorId: record.id }, nextSecret)
          : null;
      const rotated = await this.records.rotate(old, record, { oldExpiresAt, sealed, now: now.toISOString() });
      if (rotated) {
        const copies = [await this.followRecord(rotated.next), await this.followRecord(rotated.old)];
        return {
          record: rotated.next.record,
          secret: nextSecret,
          copyPending: copies.some((c) => c !== "confirmed"),
          created: true,
        };
      }
    }
    throw errors.conflict("The key changed while it was being rotated; try again");
  }

  /**
   * After the answer: the successor's first use cuts its old key to one more hour and ends the retry.
   * Written to both records and both copies, so that the old key's copy carries the time.
   */
  async reportFirstUse(successor: KeyRecord, atMs: number): Promise<void> {
    const at = new Date(atMs).toISOString();
    const cut = new Date(atMs + FIRST_USE_CUT_MS).toISOString();
    const { old, successor: next } = await this.records.reportFirstUse(successor.id, at, cut);
    for (const row of [old, next]) if (row) await this.followRecord(row);
  }

  /**
   * The 5-minute job's rotation part: the due set rewritten where it differs from the records (a lost
   * write, a cancelled or finished rotation), and sealed successor secrets of stopped keys erased.
   */
  async rotationUpkeep(): Promise<{ due_set_rewritten: boolean; sealed_secrets_erased: number }> {
    const result = { due_set_rewritten: false, sealed_secrets_erased: 0 };
    try {
      result.sealed_secrets_erased = await this.records.eraseStoppedSecrets(this.now().toISOString());
      const [due, stored] = await Promise.all([this.records.dueIds(), readDueSet(this.kv)]);
      if (stored === null ? due.length > 0 : stored.join() !== due.join()) {
        await writeDueSet(this.kv, due);
        result.due_set_rewritten = true;
      }
    } catch (err) {
      // The copies' part of the job has its own outcome; this part is tried again at the next run.
      log({ level: "warn", event: "rotation_upkeep_failed", error: errorName(err) });
    }
    return result;
  }

  /** Null for an active key; else the answer a rotate gets from it (a retry's 200), or the refusal. */
  private async answerAgain(old: KeyRecord, copy: KeyRecord, secret: string): Promise<RotatedKey | null> {
    const state = this.stateOf(old);
    if (state === "revoked") throw authError("revoked");
    if (state === "expired") throw authError(expiredBecause(old));
    if (!old.replaced_by) return null;
    if (old.rotation?.state !== "rotated") throw rolledNotRotated(old);
    if (old.successor_first_used_at) {
      // A late use that authentication could not count: the copy it read did not yet carry the first use.
      if (copy.successor_first_used_at === null && isLateUse(old, this.now().getTime())) {
        usageRecorder.recordLateUse(old.id);
      }
      throw alreadyRotated(old.id);
    }
    const [sealed, successor] = await Promise.all([
      this.records.sealedSecret(old.id),
      this.records.get(old.replaced_by),
    ]);
    const ids = { oldId: old.id, successorId: old.replaced_by };
    const opened = sealed && successor ? await openSuccessorSecret(secret, ids, sealed) : null;
    if (!opened || !successor) throw alreadyRotated(old.id);
    return { record: successor, secret: opened, copyPending: false, created: false };
  }

  /**
   * One KV write for the whole fleet, read back from D1 and written again while other marks change it.
   * A failed write leaves the due keys' copies marked pending: the 5-minute job writes them, due inside.
   */
  private async publishDueSet(due: string[]): Promise<void> {
    let ids = due;
    try {
      for (let round = 0; round < DUE_SET_WRITE_ROUNDS; round++) {
        await writeDueSet(this.kv, ids);
        const now = await this.records.dueIds();
        if (now.join() === ids.join()) return;
        ids = now;
      }
    } catch (err) {
      log({ level: "warn", event: "rotation_due_set_pending", error: errorName(err), due_keys: ids.length });
      await this.records.markDueCopies();
    }
  }

  /** Revoking again keeps the first time and writes no audit entry, but rewrites the KV copy, healing a lost write. */
  async revoke(id: string, actor: KeyActor): Promise<ChangedKey | null> {
    const who = checkActor(actor);
    if (!KEY_ID_PATTERN.test(id)) return null;
    const revoked = await this.records.revoke(id, this.now().toISOString(), who);
    if (!revoked) return null;
    return { record: revoked.record, copyPending: (await this.followRecord(revoked)) !== "confirmed" };
  }

  /**
   * Revokes every working key of the key's lineage (docs/specification.md section 9, "A copied key shows
   * itself"): the key itself first, then the others in chunks of LINEAGE_CHUNK, each revoked as `revoke` does
   * (its audit entry, its copy). Null for an unknown key; `revoked` counts the keys that were still working.
   */
  async revokeLineage(id: string, actor: KeyActor): Promise<{ record: KeyRecord; revoked: number } | null> {
    const record = await this.get(id);
    if (!record) return null;
    let revoked = 0;
    const state = this.stateOf(record);
    if (state === "active" || state === "grace") {
      await this.revoke(record.id, actor);
      revoked++;
    }
    for (let round = 0; round < MAX_LINEAGE_CHUNKS; round++) {
      const ids = await this.records.workingOfLineage(record.lineage_id, this.now().toISOString(), LINEAGE_CHUNK);
      for (const other of ids) await this.revoke(other, actor);
      revoked += ids.length;
      if (ids.length < LINEAGE_CHUNK) break;
    }
    return { record: (await this.get(id)) ?? record, revoked };
  }

  /** The 5-minute job. A failed KV write or confirmation ends the run: KV or D1 is refusing, the rest would fail. */
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
    return keyState(record, this.now().toISOString());
  }

  private assertActive(record: KeyRecord): void {
    const state = this.stateOf(record);
    if (state !== "active") throw notActive(record, state);
  }

  /**
   * `current` must be the record as a change's own batch left it, never one read before: the copy is written
   * from it, and written again while the record changes meanwhile (docs/specification.md section 2).
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

  private async leavePending<R extends Exclude<CopyOutcome, "confirmed">>(
    id: string,
    reason: R,
    err: unknown,
    markAgain: boolean,
  ): Promise<R> {
    let marked = !markAgain;
    if (markAgain) {
      try {
        await this.records.mark(id);
        marked = true;
      } catch {
        // The change's own mark (or a newer one) may still be set; the warning below says it is not known.
      }
    }
    log({
      level: "warn",
      event: "key_copy_pending",
      key_id: id,
      reason,
      error: err === null ? null : errorName(err),
      marked,
    });
    return reason;
  }

  /**
   * Key records that only KV held (before D1 did) moved into D1: a step of `npm run db:migrate`, `npm start`
   * and `npm run deploy` (scripts/lib/migrate.ts), never of a request. One KV list when none is left.
   */
  async carryOverLegacyKeys(): Promise<number> {
    const legacy = await legacyRecords(this.kv);
    if (legacy.length === 0) return 0;
    await this.records.insertMissing(legacy);
    await drainCarriedOver(this.kv, legacy);
    return legacy.length;
  }
}

/**
 * A roll's or a rotation's new key: the old one's name, mode, scopes, agent and expiry (so it never
 * outlives it); and the old key's end, its grace from now but never past its own expiry.
 */
async function replacementOf(
  old: KeyRecord,
  graceSeconds: number,
  now: Date,
): Promise<Omit<CreatedKey, "copyPending"> & { oldExpiresAt: string }> {
  const fields = {
    name: old.name,
    mode: old.mode,
    expiresAt: old.expires_at,
    replaces: old.id,
    scopes: old.scopes,
    agentId: old.agent_id,
    lineageId: old.lineage_id,
  };
  const graceEnd = new Date(now.getTime() + graceSeconds * 1000).toISOString();
  const oldExpiresAt = old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd;
  return { ...(await newKey(fields, now)), oldExpiresAt };
}

async function newKey(
  fields: {
    name: string;
    mode: KeyMode;
    expiresAt: string | null;
    replaces: string | null;
    scopes: Scope[];
    agentId: number | null;
    /** The old key's lineage for a roll or a rotation; null: the new key roots its own. */
    lineageId: string | null;
  },
  now: Date,
): Promise<Omit<CreatedKey, "copyPending">> {
  const secret = newSecret(fields.mode);
  const id = newKeyId();
  const record: KeyRecord = {
    id,
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
    rotation: null,
    successor_first_used_at: null,
    awaits_first_use: false,
    lineage_id: fields.lineageId ?? id,
  };
  return { record, secret };
}

/** Without what is for authentication's eyes only: the hash and the rotation's request-path fields. */
export function publicRecord<R extends KeyRecord>(
  record: R,
  state: KeyState,
): Omit<R, "hash" | "successor_first_used_at" | "awaits_first_use" | "lineage_id"> & { status: KeyState } {
  const {
    hash: _hash,
    successor_first_used_at: _first,
    awaits_first_use: _awaits,
    lineage_id: _lineage,
    ...rest
  } = record;
  return { ...rest, status: state };
}
