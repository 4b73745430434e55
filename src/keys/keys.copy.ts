// The KV copy of a key record, as authentication reads it; a copy older than scopes and agents reads as both, no agent.
import { storedScopes } from "./keys.rules.ts";
import { type KeyRecord, lineageOf, type RotationFields, rotationOfCopy } from "./keys.record.ts";
import { rotationDue as isRotationDue } from "./keys.rotation.ts";
import { errorName, log } from "../platform/lib/log.ts";
import { digestsEqual, hashSecret } from "./keys.secret.ts";
import type { KeyRecords, VersionedRecord } from "./keys.records.ts";
import { BoundedLru } from "../platform/lib/lru.ts";
import { clearFirstUseReports } from "./keys.rotation.ts";

export type StoredCopy = Omit<KeyRecord, "scopes" | "agent_id" | "lineage_id" | RotationFields> & {
  scopes?: unknown;
  agent_id?: unknown;
  lineage_id?: unknown;
} & Partial<Pick<KeyRecord, RotationFields>>;

export function fromCopy(stored: StoredCopy): KeyRecord {
  const agent = stored.agent_id;
  return {
    ...stored,
    scopes: storedScopes(stored.scopes),
    agent_id: typeof agent === "number" && Number.isSafeInteger(agent) && agent > 0 ? agent : null,
    lineage_id: lineageOf(stored.id, stored.lineage_id),
    ...rotationOfCopy(stored),
  };
}

export const ISOLATE_KEY_TTL_MS = 10_000;
export const ISOLATE_KEY_CACHE_SIZE = 2_000;
/** Short, so a key made elsewhere soon works here; long enough that an unknown key in a loop costs few KV reads. */
export const UNKNOWN_KEY_TTL_MS = 5_000;
export const UNKNOWN_KEY_CACHE_SIZE = 1_000;

// Kept apart so that random well-formed keys fill only `unknown` and never push a real key out.
const known = new BoundedLru<KeyRecord>(ISOLATE_KEY_CACHE_SIZE, ISOLATE_KEY_TTL_MS);
const unknown = new BoundedLru<true>(UNKNOWN_KEY_CACHE_SIZE, UNKNOWN_KEY_TTL_MS);

/** null: known to be no key; undefined: not cached. */
export function cachedKey(hash: string, nowMs: number): KeyRecord | null | undefined {
  const record = known.get(hash, nowMs);
  if (record !== undefined) return record;
  return unknown.get(hash, nowMs) ? null : undefined;
}

// KEY_CACHE_SECONDS (0 to 10, else 10) only shortens the trust, so the revocation bound holds whatever is configured.
export function keyCacheTtlMs(value: unknown): number {
  if (typeof value === "string" && /^[0-9]{1,2}$/.test(value) && Number(value) * 1000 <= ISOLATE_KEY_TTL_MS) {
    return Number(value) * 1000;
  }
  return ISOLATE_KEY_TTL_MS;
}

/** A "no such key" answer is kept for at most UNKNOWN_KEY_TTL_MS whatever ttlMs says. */
export function rememberKey(hash: string, record: KeyRecord | null, nowMs: number, ttlMs = ISOLATE_KEY_TTL_MS): void {
  // A hash is in one of the two at most: the newest answer replaces the other.
  if (record) {
    unknown.delete(hash);
    known.set(hash, record, nowMs, ttlMs);
  } else {
    known.delete(hash);
    unknown.set(hash, true, nowMs, Math.min(ttlMs, UNKNOWN_KEY_TTL_MS));
  }
}

export function forgetKey(hash: string): void {
  known.delete(hash);
  unknown.delete(hash);
}

/** For tests: as a new isolate starts. */
export function clearIsolateKeyCache(): void {
  known.clear();
  unknown.clear();
  clearIsolateDueSet();
  clearFirstUseReports();
}

export const DUE_SET_KEY = "rotation:due";

let knownDue: ReadonlySet<string> | undefined;

function idsOf(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [];
}

/** What a key-copy read brought along: the set as it is now. */
export function rememberDueSet(stored: unknown): void {
  knownDue = new Set(idsOf(stored));
}

/** The set this isolate read last; one read of its own only before any key-copy read brought it. */
export async function dueIds(kv: KVNamespace): Promise<ReadonlySet<string>> {
  if (!knownDue) rememberDueSet(await kv.get<unknown>(DUE_SET_KEY, "json"));
  return knownDue!;
}

export async function readDueSet(kv: KVNamespace): Promise<string[] | null> {
  const stored = await kv.get<unknown>(DUE_SET_KEY, "json");
  return stored === null ? null : idsOf(stored);
}

export async function writeDueSet(kv: KVNamespace, ids: readonly string[]): Promise<void> {
  await kv.put(DUE_SET_KEY, JSON.stringify(ids));
  knownDue = new Set(ids);
}

/** For tests: as a new isolate starts. */
export function clearIsolateDueSet(): void {
  knownDue = undefined;
}

/** KV's edge cache for key reads (its minimum): a production read may be this stale. */
export const KV_KEY_CACHE_TTL_SECONDS = 30;
/** Workers KV's own propagation of a write to other locations, as Cloudflare documents it. */
export const KV_PROPAGATION_SECONDS = 60;
/** Revoking or rolling reaches every request locally within this (KV's cacheTtl has no effect locally). */
export const REVOCATION_BOUND_LOCAL_SECONDS = ISOLATE_KEY_TTL_MS / 1000;
/** ... and in production within this: isolate cache + KV edge cache + KV propagation. */
export const REVOCATION_BOUND_PRODUCTION_SECONDS =
  ISOLATE_KEY_TTL_MS / 1000 + KV_KEY_CACHE_TTL_SECONDS + KV_PROPAGATION_SECONDS;
/** Past this many rewrites of a copy whose record keeps changing, leave it pending: each change has its own writer. */
export const COPY_WRITE_ROUNDS = 4;
/** Pending copies that one run of the job rewrites at most (each is a KV write and a D1 batch). */
export const PENDING_COPIES_PER_RUN = 200;
/** Must match wrangler.toml [triggers]: with KV's propagation, the bound on a failed copy write. */
export const COPY_JOB_INTERVAL_SECONDS = 300;

/** Rounds of writing the due set while marks keep changing it: like COPY_WRITE_ROUNDS. */
export const DUE_SET_WRITE_ROUNDS = 3;

export interface PendingCopiesResult {
  copies_rewritten: number;
  copies_still_pending: number;
}

type CopyOutcome = "confirmed" | "kv_write_failed" | "confirm_failed" | "record_kept_changing";

/** The KV copies of the records: how authentication reads them, and how every change keeps them in step. */
export class KeyCopies {
  constructor(
    readonly kv: KVNamespace,
    private readonly records: KeyRecords,
    private readonly now: () => Date,
    private readonly keyCacheTtlMs: number,
  ) {}

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

  /** Whether an answer to this working key carries `Key-Rotation: due`: from the read that found its copy. */
  async rotationDue(record: KeyRecord): Promise<boolean> {
    if (record.rotation) return isRotationDue(record, new Set());
    return isRotationDue(record, await dueIds(this.kv));
  }

  /** `current`: the record as the change's own batch left it; rewritten while it changes (specification section 2). */
  async follow(current: VersionedRecord): Promise<CopyOutcome> {
    let row = current;
    const id = row.record.id;
    for (let round = 0; round < COPY_WRITE_ROUNDS; round++) {
      try {
        await this.kv.put(`hash:${row.record.hash}`, JSON.stringify(row.record));
      } catch (err) {
        // A failed put may have landed with an older record: a new mark, so no older confirmation can clear it.
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

  /** The 5-minute job. A failed KV write or confirmation ends the run: KV or D1 is refusing, the rest would fail. */
  async rewritePendingCopies(): Promise<PendingCopiesResult> {
    const result: PendingCopiesResult = { copies_rewritten: 0, copies_still_pending: 0 };
    const tried = () => result.copies_rewritten + result.copies_still_pending;
    let after = "";
    while (tried() < PENDING_COPIES_PER_RUN) {
      const page = await this.records.pending(after, Math.min(50, PENDING_COPIES_PER_RUN - tried()));
      if (page.length === 0) break;
      for (const row of page) {
        const copy = await this.follow(row);
        if (copy === "confirmed") result.copies_rewritten++;
        else result.copies_still_pending++;
        if (copy === "kv_write_failed" || copy === "confirm_failed") return result;
      }
      after = page.at(-1)!.record.id;
    }
    return result;
  }

  /** One KV write for the fleet, repeated while marks change; on failure the 5-minute job writes the due copies. */
  async publishDueSet(due: string[]): Promise<void> {
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
}
