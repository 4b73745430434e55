// The key store, the one judge of key rules everywhere: D1 holds the records; authentication reads the KV copy only.
import { errors } from "../platform/errors.ts";
import {
  type AuditEntry,
  checkActor,
  checkAuditLimit,
  DEFAULT_AUDIT_LIMIT,
  type KeyActor,
  readAudit,
} from "./keys.audit.ts";
import { fromCopy, ISOLATE_KEY_TTL_MS, KeyCopies, type PendingCopiesResult, type StoredCopy } from "./keys.copy.ts";
import { type KeyListFilters, type KeyListPage, readKeyListPage } from "./keys.usage.ts";
import {
  type ChangedKey,
  type CreatedKey,
  type KeyDatabase,
  type KeyRecord,
  type KeyState,
  keyState,
} from "./keys.record.ts";
import type { KeyClaim } from "./keys.records.ts";
import { KeyRotations, newKey, replacementOf, type RotatedKey } from "./keys.rotate.ts";
import type { RotationRequest } from "./keys.rotation.ts";
import { KeyRecords } from "./keys.records.ts";
import { checkNewKey, checkSeconds, notActive } from "./keys.rules.ts";
import { type KeyMode, KEY_ID_PATTERN } from "./keys.secret.ts";
import { type KeyWithUsage, readUsage } from "./keys.usage.ts";

export {
  COPY_JOB_INTERVAL_SECONDS,
  COPY_WRITE_ROUNDS,
  KV_PROPAGATION_SECONDS,
  REVOCATION_BOUND_LOCAL_SECONDS,
  REVOCATION_BOUND_PRODUCTION_SECONDS,
} from "./keys.copy.ts";
export type { PendingCopiesResult } from "./keys.copy.ts";
export type { RotatedKey } from "./keys.rotate.ts";
export type { KeyRecord } from "./keys.record.ts";
export type { AuditEntry, KeyActor } from "./keys.audit.ts";
export type { KeyClaim } from "./keys.records.ts";
export type { KeyWithUsage } from "./keys.usage.ts";
export type { KeyListAgent, KeyListCounts, KeyListFilters, KeyListPage, RotationListState } from "./keys.usage.ts";
export { KEY_STATES, ROTATION_STATES } from "./keys.usage.ts";

export const DEFAULT_GRACE_SECONDS = 86_400;
/** Keys of a lineage revoked per read of its working keys, and the most reads one revocation makes. */
export const LINEAGE_CHUNK = 50;
export const MAX_LINEAGE_CHUNKS = 20;

/** A new key as asked for; checkNewKey holds it to the key rules. */
interface NewKeyInput {
  name: string;
  mode: KeyMode;
  expiresInSeconds?: number | null;
  scopes?: readonly string[] | null;
  agentId?: number | null;
}

export class KeyStore {
  private readonly records: KeyRecords;
  private readonly copies: KeyCopies;
  private readonly rotations: KeyRotations;

  constructor(
    private readonly kv: KVNamespace,
    private readonly db: KeyDatabase,
    private readonly now: () => Date = () => new Date(),
    private readonly keyCacheTtlMs = ISOLATE_KEY_TTL_MS,
  ) {
    this.records = new KeyRecords(db);
    this.copies = new KeyCopies(kv, this.records, now, keyCacheTtlMs);
    this.rotations = new KeyRotations(this.records, this.copies, now);
  }

  findBySecret(secret: string): Promise<KeyRecord | null> {
    return this.copies.findBySecret(secret);
  }

  rotationDue(record: KeyRecord): Promise<boolean> {
    return this.copies.rotationDue(record);
  }

  rewritePendingCopies(): Promise<PendingCopiesResult> {
    return this.copies.rewritePendingCopies();
  }

  requestRotation(input: RotationRequest, actor: KeyActor): Promise<{ requested: number }> {
    return this.rotations.request(input, actor);
  }

  countDue(input: RotationRequest): Promise<number> {
    return this.rotations.countDue(input);
  }

  rotate(copy: KeyRecord, secret: string, graceSeconds?: number): Promise<RotatedKey> {
    return this.rotations.rotate(copy, secret, graceSeconds);
  }

  reportFirstUse(successor: KeyRecord, atMs: number): Promise<void> {
    return this.rotations.reportFirstUse(successor, atMs);
  }

  rotationUpkeep(): Promise<{ due_set_rewritten: boolean; sealed_secrets_erased: number }> {
    return this.rotations.upkeep();
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

  /** A key made by an enrollment code's exchange: `claim` builds what its batch must win first; null if it fails. */
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
    const copy = await this.copies.follow(inserted);
    return { record: inserted.record, secret, copyPending: copy !== "confirmed" };
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

  /** The new key keeps the old one's expiry; the old works graceSeconds more. A 409 if another roll commits first. */
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
    const copies = [await this.copies.follow(rolled.next), await this.copies.follow(rolled.old)];
    // The roll cancelled a due rotation: the fleet's due set must stop naming the old key.
    if (old.rotation?.state === "due") await this.copies.publishDueSet(await this.records.dueIds());
    return { record: rolled.next.record, secret, copyPending: copies.some((c) => c !== "confirmed") };
  }

  /** Revoking again keeps the first time and writes no audit entry, but rewrites the KV copy, healing a lost write. */
  async revoke(id: string, actor: KeyActor): Promise<ChangedKey | null> {
    const who = checkActor(actor);
    if (!KEY_ID_PATTERN.test(id)) return null;
    const revoked = await this.records.revoke(id, this.now().toISOString(), who);
    if (!revoked) return null;
    return { record: revoked.record, copyPending: (await this.copies.follow(revoked)) !== "confirmed" };
  }

  /** Revokes the key, then its lineage's working keys in chunks, each as `revoke` does; null for an unknown key. */
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

  stateOf(record: KeyRecord): KeyState {
    return keyState(record, this.now().toISOString());
  }

  private assertActive(record: KeyRecord): void {
    const state = this.stateOf(record);
    if (state !== "active") throw notActive(record, state);
  }

  /** KV-only key records moved into D1: a step of db:migrate, start and deploy, never of a request. */
  async carryOverLegacyKeys(): Promise<number> {
    const legacy = await legacyRecords(this.kv);
    if (legacy.length === 0) return 0;
    await this.records.insertMissing(legacy);
    await drainCarriedOver(this.kv, legacy);
    return legacy.length;
  }
}

/** What is for authentication's eyes only: the hash, the lineage and the rotation's request-path fields. */
const INTERNAL: readonly string[] = ["hash", "successor_first_used_at", "awaits_first_use", "lineage_id"];
type Internal = "hash" | "successor_first_used_at" | "awaits_first_use" | "lineage_id";

export function publicRecord<R extends KeyRecord>(
  record: R,
  state: KeyState,
): Omit<R, Internal> & { status: KeyState } {
  const shown = Object.fromEntries(Object.entries(record).filter(([name]) => !INTERNAL.includes(name)));
  return { ...(shown as Omit<R, Internal>), status: state };
}

const LEGACY_PREFIX = "id:";

export async function legacyRecords(kv: KVNamespace): Promise<KeyRecord[]> {
  const records: KeyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<StoredCopy> = await kv.list<StoredCopy>({ prefix: LEGACY_PREFIX, cursor });
    for (const k of page.keys) if (k.metadata) records.push(fromCopy(k.metadata));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return records;
}

/** Only after D1 committed `records`: until then these entries are their only record. */
export async function drainCarriedOver(kv: KVNamespace, records: KeyRecord[]): Promise<void> {
  await Promise.all(records.map((r) => kv.delete(`${LEGACY_PREFIX}${r.id}`)));
}
