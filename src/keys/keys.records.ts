// Key records in D1: each change one conditional batch with its audit row, the copy's mark and the record read back.
import { causeMessages } from "../platform/errors.ts";
import type { KeyActorName } from "./keys.audit.ts";
import { scopesText } from "./keys.rules.ts";
import { type KeyDatabase, type KeyRecord, toRecord } from "./keys.record.ts";
import { auditQueries, keyQueries, rotationQueries, type AuditRow, type VersionedRow } from "./keys.queries.ts";
import type { KeyMode } from "./keys.secret.ts";

export interface VersionedRecord {
  record: KeyRecord;
  version: number;
  pending: boolean;
}

export interface RotationFilter {
  ids: string[] | null;
  mode: KeyMode | null;
  agentId: number | null;
}

type Actor = { actor: KeyActorName; sessionId: string | null };
type Replaced = { next: VersionedRecord; old: VersionedRecord } | null;

/** What a key made by exchanging an enrollment code must win first, in its own batch (docs/specification.md section
 * 9): `statement` runs first; the key is inserted only if `proof` (SQL; ?1 is the new key's id) then holds. */
export interface KeyClaim {
  codeId: string;
  statement: D1PreparedStatement;
  proof: string;
}

function toVersioned(row: VersionedRow | undefined): VersionedRecord | null {
  return row ? { record: toRecord(row), version: row.version, pending: row.copy_pending === 1 } : null;
}

function versioned(result: D1Result | undefined): VersionedRecord | null {
  return toVersioned((result?.results as VersionedRow[] | undefined)?.[0]);
}

function idsOf(result: D1Result | undefined): string[] {
  return ((result?.results ?? []) as { id: string }[]).map((r) => r.id);
}

function values(r: KeyRecord): unknown[] {
  const { id, name, mode, prefix, hash, created_at, expires_at, revoked_at, replaces, replaced_by, agent_id } = r;
  const rest = [scopesText(r.scopes), agent_id, r.lineage_id];
  return [id, name, mode, prefix, hash, created_at, expires_at, revoked_at, replaces, replaced_by, ...rest];
}

function entryOf(
  action: "create" | "roll" | "rotate" | "enroll",
  record: KeyRecord,
  at: string,
  actor: Actor,
  next: KeyRecord | null,
  codeId: string | null = null,
): AuditRow {
  const { id: key_id, name: key_name, mode } = record;
  const new_key_id = next?.id ?? null;
  return {
    at,
    action,
    key_id,
    new_key_id,
    code_id: codeId,
    key_name,
    mode,
    actor: actor.actor,
    session_id: actor.sessionId,
  };
}

const filterOf = (f: RotationFilter) => [f.ids && JSON.stringify(f.ids), f.mode, f.agentId] as const;

export class KeyRecords {
  constructor(private readonly db: KeyDatabase) {}

  async get(id: string): Promise<KeyRecord | null> {
    const row = await keyQueries.get(this.db, id).first<VersionedRow>();
    return row ? toRecord(row) : null;
  }

  async getVersioned(id: string): Promise<VersionedRecord | null> {
    return toVersioned((await keyQueries.read(this.db, id).first<VersionedRow>()) ?? undefined);
  }

  async getByHash(hash: string): Promise<KeyRecord | null> {
    return versioned(await keyQueries.readByHash(this.db, hash).all())?.record ?? null;
  }

  async list(): Promise<KeyRecord[]> {
    const { results } = await keyQueries.list(this.db).all<VersionedRow>();
    return results.map(toRecord);
  }

  /** Null, nothing written, for an unknown sales agent or a claim whose proof fails after its statement ran. */
  async insert(record: KeyRecord, actor: Actor, claim?: KeyClaim): Promise<VersionedRecord | null> {
    const entry = claim
      ? entryOf("enroll", record, record.created_at, actor, null, claim.codeId)
      : entryOf("create", record, record.created_at, actor, null);
    const statements = [
      keyQueries.insert(this.db, values(record), claim?.proof ?? null),
      auditQueries.entry(this.db, entry, record.id),
      keyQueries.read(this.db, record.id),
    ];
    const results = await this.db.batch<VersionedRow>(claim ? [claim.statement, ...statements] : statements);
    return toVersioned(results.at(-1)?.results[0]);
  }

  /** The legacy carry-over: records already here are left as they are. */
  async insertMissing(records: KeyRecord[]): Promise<void> {
    if (records.length === 0) return;
    const insert = keyQueries.insertOrIgnore(this.db);
    await this.db.batch(records.map((r) => insert.bind(...values(r))));
  }

  /** Null when the old key was no longer active at `now`. A roll cancels a rotation that was due. */
  roll(old: KeyRecord, next: KeyRecord, oldExpiresAt: string, now: string, actor: Actor): Promise<Replaced> {
    return this.replace(old, next, oldExpiresAt, now, actor, null);
  }

  /** Null when another rotate or a roll of the old key committed first, or it stopped being active. */
  rotate(old: KeyRecord, next: KeyRecord, change: { oldExpiresAt: string; sealed: string | null; now: string }) {
    const rotated = { now: change.now, sealed: change.sealed };
    return this.replace(old, next, change.oldExpiresAt, change.now, { actor: "key", sessionId: null }, rotated);
  }

  /** A roll or a rotation, one batch (the new key, the old pointed at it, the audit row, both read back); null when the
   * old key stopped being active or another roll or rotation committed first (the unique rolled_from). */
  private async replace(
    old: KeyRecord,
    next: KeyRecord,
    oldExpiresAt: string,
    now: string,
    actor: Actor,
    rotated: { now: string; sealed: string | null } | null,
  ): Promise<Replaced> {
    const db = this.db;
    // A rotation's successor waits for its first use, which reaches the old key's record through reportFirstUse.
    const alsoNext = rotated ? [keyQueries.awaitFirstUse(db, next.id)] : [];
    const change = { nextId: next.id, oldId: old.id, oldExpiresAt };
    const audit = auditQueries.entry(db, entryOf(rotated ? "rotate" : "roll", old, now, actor, next), next.id);
    try {
      const results = await db.batch<VersionedRow>([
        keyQueries.insertReplacement(db, values(next), now),
        ...alsoNext,
        keyQueries.replaceOld(db, change, rotated),
        audit,
        keyQueries.read(db, next.id),
        keyQueries.read(db, old.id),
      ]);
      const [nextNow, oldNow] = [versioned(results.at(-2)), versioned(results.at(-1))];
      // Inserted or not: D1's meta.changes counts migration 0023's trigger changes too, so never exactly 1.
      return (results[0]?.meta.changes ?? 0) > 0 && nextNow && oldNow ? { next: nextNow, old: oldNow } : null;
    } catch (err) {
      if (/UNIQUE constraint failed: api_keys\.rolled_from/.test(causeMessages(err))) return null;
      throw err;
    }
  }

  /** Marks the copy pending even when already revoked, so that revoking again rewrites a lost copy. */
  async revoke(id: string, now: string, actor: Actor): Promise<VersionedRecord | null> {
    const [, , read] = await this.db.batch<VersionedRow>([
      auditQueries.revoke(this.db, id, now, actor.actor, actor.sessionId),
      keyQueries.revoke(this.db, id, now),
      keyQueries.read(this.db, id),
    ]);
    return toVersioned(read?.results[0]);
  }

  /** Clears the mark only at `version`: a newer version read back means the copy must be written again. */
  async confirm(id: string, version: number): Promise<VersionedRecord | null> {
    const [, read] = await this.db.batch<VersionedRow>([
      keyQueries.confirm(this.db, id, version),
      keyQueries.read(this.db, id),
    ]);
    return toVersioned(read?.results[0]);
  }

  /** The version moves too, so that another writer's confirmation of an older read cannot clear this mark. */
  async mark(id: string): Promise<void> {
    await keyQueries.mark(this.db, id).run();
  }

  async pending(afterId: string, limit: number): Promise<VersionedRecord[]> {
    const { results } = await keyQueries.pending(this.db, afterId, limit).all<VersionedRow>();
    return results.map((row) => toVersioned(row)!);
  }

  /** The ids among `ids` that name no key. */
  async unknownIds(ids: string[]): Promise<string[]> {
    return idsOf(await rotationQueries.unknownIds(this.db, JSON.stringify(ids)).all());
  }

  async markDue(filter: RotationFilter, now: string, actor: Actor): Promise<{ requested: number; due: string[] }> {
    const [, marked, due] = await this.db.batch([
      rotationQueries.auditDue(this.db, now, [...filterOf(filter)], actor.actor, actor.sessionId),
      rotationQueries.markDue(this.db, now, [...filterOf(filter)]),
      rotationQueries.due(this.db),
    ]);
    return { requested: marked?.results.length ?? 0, due: idsOf(due) };
  }

  /** The backstop of a lost due-set write: each due key's copy rewritten, its state inside, by the job. */
  async markDueCopies(): Promise<void> {
    await rotationQueries.markDueCopies(this.db).run();
  }

  /** Up to `limit` keys of the lineage that still authenticate at `now`, on the lineage index. */
  async workingOfLineage(lineageId: string, now: string, limit: number): Promise<string[]> {
    return idsOf(await rotationQueries.workingOfLineage(this.db, lineageId, now, limit).all());
  }

  /** The keys of the filter whose rotation is due (and not revoked): what a request left due, for its report. */
  async countDue(filter: RotationFilter): Promise<number> {
    const row = await rotationQueries.countDue(this.db, [...filterOf(filter)]).first<{ n: number }>();
    return row?.n ?? 0;
  }

  async dueIds(): Promise<string[]> {
    return idsOf(await rotationQueries.due(this.db).all());
  }

  /** The sealed successor secret, read only by the rotate that may answer it again. */
  async sealedSecret(id: string): Promise<string | null> {
    const row = await rotationQueries.sealedSecret(this.db, id).first<{ sealed: string | null }>();
    return row?.sealed ?? null;
  }

  /** The successor's first use: the old key cut to `cut`, its sealed secret gone; each record read back or null. */
  async reportFirstUse(successorId: string, at: string, cut: string) {
    const [, , successor, old] = await this.db.batch([
      rotationQueries.firstUseOfOld(this.db, successorId, at, cut),
      rotationQueries.firstUseOfSuccessor(this.db, successorId),
      keyQueries.read(this.db, successorId),
      keyQueries.readReplacedBy(this.db, successorId),
    ]);
    return { successor: versioned(successor), old: versioned(old) };
  }

  /** A sealed secret is kept only while its old key can still ask for it again. */
  async eraseStoppedSecrets(now: string): Promise<number> {
    return (await rotationQueries.eraseStoppedSecrets(this.db, now).run()).meta.changes ?? 0;
  }
}
