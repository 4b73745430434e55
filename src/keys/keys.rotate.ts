// Rotation (docs/specification.md section 9): marking due, a rotate and its retry, first use, the job's part.
import { errors } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";
import { checkActor, type KeyActor } from "./keys.audit.ts";
import { type KeyCopies, readDueSet, writeDueSet } from "./keys.copy.ts";
import { type CreatedKey, type KeyRecord, type KeyState, keyState, lineageOf } from "./keys.record.ts";
import { authError, type Scope } from "./keys.rules.ts";
import {
  alreadyRotated,
  checkRotationFilter,
  DEFAULT_ROTATION_GRACE_SECONDS,
  expiredBecause,
  FIRST_USE_CUT_MS,
  isLateUse,
  MIN_SELF_ROTATION_AGE_MS,
  openSuccessorSecret,
  rolledNotRotated,
  rotatedTooRecently,
  type RotationRequest,
  sealSuccessorSecret,
} from "./keys.rotation.ts";
import type { KeyRecords } from "./keys.records.ts";
import { displayPrefix, hashSecret, type KeyMode, newKeyId, newSecret } from "./keys.secret.ts";
import { usageRecorder } from "./keys.usage.ts";
export interface RotatedKey extends CreatedKey {
  /** False for the same successor answered again (a retry). */
  created: boolean;
}

export class KeyRotations {
  constructor(
    private readonly records: KeyRecords,
    private readonly copies: KeyCopies,
    private readonly now: () => Date,
  ) {}

  /** Marks the filter's active keys due, one audit entry each, then writes the fleet's due set once. */
  async request(input: RotationRequest, actor: KeyActor): Promise<{ requested: number }> {
    const who = checkActor(actor);
    const filter = checkRotationFilter(input);
    if (filter.ids) {
      const unknown = await this.records.unknownIds(filter.ids);
      if (unknown.length > 0) {
        throw errors.validation([{ field: "ids", message: `names no key: ${unknown.slice(0, 10).join(", ")}` }]);
      }
    }
    const { requested, due } = await this.records.markDue(filter, this.now().toISOString(), who);
    if (requested > 0) await this.copies.publishDueSet(due);
    return { requested };
  }

  /** How many keys of the filter are due now (the command line's report: marked now or before). */
  async countDue(input: RotationRequest): Promise<number> {
    return this.records.countDue(checkRotationFilter(input));
  }

  /** POST /keys/rotate: the successor made, or the same one again for a retry before its first use (of two racing
   * rotates, one commits and the other answers its successor). */
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
        const copies = [await this.copies.follow(rotated.next), await this.copies.follow(rotated.old)];
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

  /** After the answer: the successor's first use, written to both records and both copies. */
  async reportFirstUse(successor: KeyRecord, atMs: number): Promise<void> {
    const at = new Date(atMs).toISOString();
    const cut = new Date(atMs + FIRST_USE_CUT_MS).toISOString();
    const { old, successor: next } = await this.records.reportFirstUse(successor.id, at, cut);
    for (const row of [old, next]) if (row) await this.copies.follow(row);
  }

  /** The 5-minute job's part: the due set rewritten where the records differ; stopped keys' sealed secrets erased. */
  async upkeep(): Promise<{ due_set_rewritten: boolean; sealed_secrets_erased: number }> {
    const result = { due_set_rewritten: false, sealed_secrets_erased: 0 };
    try {
      result.sealed_secrets_erased = await this.records.eraseStoppedSecrets(this.now().toISOString());
      const [due, stored] = await Promise.all([this.records.dueIds(), readDueSet(this.copies.kv)]);
      if (stored === null ? due.length > 0 : stored.join() !== due.join()) {
        await writeDueSet(this.copies.kv, due);
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

  private stateOf(record: KeyRecord): KeyState {
    return keyState(record, this.now().toISOString());
  }
}

/** A roll's or a rotation's new key: the old one's name, mode, scopes, agent and expiry (so it never outlives it);
 * and the old key's end, its grace from now but never past its own expiry. */
export async function replacementOf(
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

export async function newKey(
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
    lineage_id: lineageOf(id, fields.lineageId),
  };
  return { record, secret };
}
