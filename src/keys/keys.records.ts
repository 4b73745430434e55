// Key records in D1, the system of record: each change is one atomic, conditional batch that writes its audit row,
// marks the KV copy pending and reads the record back (docs/specification.md section 2).
import { causeMessages } from "../platform/errors.ts";
import { type AuditEntry, auditStatement, type KeyActorName, revokeAuditStatement } from "./keys.audit.ts";
import { scopesText, storedScopes } from "./keys.rules.ts";
import type { KeyDatabase, KeyRecord } from "./keys.record.ts";
import { ROTATION_COLUMNS, type RotationRow, rotationOf } from "./keys.rotation.record.ts";

export const KEY_COLUMNS =
  "id, name, mode, prefix, hash, created_at, expires_at, revoked_at, rolled_from, replaced_by, scopes, agent_id, lineage_id";
const PLACEHOLDERS = KEY_COLUMNS.split(", ")
  .map((_, i) => `?${i + 1}`)
  .join(", ");
/** What a read adds to the written columns: the rotation's, which only rotation statements write. */
export const READ_COLUMNS = `${KEY_COLUMNS}, ${ROTATION_COLUMNS}`;
const VERSIONED_COLUMNS = `${READ_COLUMNS}, version, copy_pending`;
export const MARK = "version = version + 1, copy_pending = 1";
/** A rotation's mark: the copy lacks only the key's "due", which authentication already reads from the fleet's due
 * set (docs/specification.md section 9), so the key is not shown as pending (2); the job still writes the copy. A
 * copy already pending for another reason stays pending (1). */
export const ROTATION_MARK = "version = version + 1, copy_pending = CASE copy_pending WHEN 1 THEN 1 ELSE 2 END";

export interface KeyRow extends RotationRow {
  id: string;
  name: string;
  mode: KeyRecord["mode"];
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  rolled_from: string | null;
  replaced_by: string | null;
  scopes: string;
  agent_id: number | null;
  /** Null only on a row that migration 0019 did not reach (none): read as the key's own. */
  lineage_id: string | null;
}

interface VersionedRow extends KeyRow {
  version: number;
  copy_pending: number;
}

export interface VersionedRecord {
  record: KeyRecord;
  version: number;
  pending: boolean;
}

function toVersioned(row: VersionedRow | undefined): VersionedRecord | null {
  return row ? { record: toRecord(row), version: row.version, pending: row.copy_pending === 1 } : null;
}

export function toRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    prefix: row.prefix,
    hash: row.hash,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    replaces: row.rolled_from,
    replaced_by: row.replaced_by,
    scopes: storedScopes(row.scopes),
    agent_id: row.agent_id,
    ...rotationOf(row),
    lineage_id: row.lineage_id ?? row.id,
  };
}

function values(r: KeyRecord): unknown[] {
  return [
    r.id,
    r.name,
    r.mode,
    r.prefix,
    r.hash,
    r.created_at,
    r.expires_at,
    r.revoked_at,
    r.replaces,
    r.replaced_by,
    scopesText(r.scopes),
    r.agent_id,
    r.lineage_id,
  ];
}

function entryOf(
  action: "create" | "roll" | "rotate" | "enroll",
  record: KeyRecord,
  at: string,
  actor: Actor,
  next: KeyRecord | null,
  codeId: string | null = null,
): AuditEntry {
  return {
    at,
    action,
    key_id: record.id,
    new_key_id: next?.id ?? null,
    code_id: codeId,
    key_name: record.name,
    mode: record.mode,
    actor: actor.actor,
    session_id: actor.sessionId,
  };
}

type Actor = { actor: KeyActorName; sessionId: string | null };

/** What a key made by exchanging an enrollment code must win first, in its own batch (docs/specification.md section
 * 9): `statement` runs first; the key is inserted only if `proof` (SQL; ?1 is the new key's id) then holds. */
export interface KeyClaim {
  codeId: string;
  statement: D1PreparedStatement;
  proof: string;
}

export class KeyRecords {
  constructor(protected readonly db: KeyDatabase) {}

  async get(id: string): Promise<KeyRecord | null> {
    const row = await this.db.prepare(`SELECT ${READ_COLUMNS} FROM api_keys WHERE id = ?1`).bind(id).first<KeyRow>();
    return row ? toRecord(row) : null;
  }

  async getVersioned(id: string): Promise<VersionedRecord | null> {
    return toVersioned((await this.readStatement(id).first<VersionedRow>()) ?? undefined);
  }

  async list(): Promise<KeyRecord[]> {
    const { results } = await this.db
      .prepare(`SELECT ${READ_COLUMNS} FROM api_keys ORDER BY created_at, id`)
      .all<KeyRow>();
    return results.map(toRecord);
  }

  /** Null, and nothing written, when the key names a sales agent that does not exist, or when a claim is given and
   * its proof does not hold after its statement ran (the same batch: an enrollment code's exchange). */
  async insert(record: KeyRecord, actor: Actor, claim?: KeyClaim): Promise<VersionedRecord | null> {
    const insert = this.db
      .prepare(
        `INSERT INTO api_keys (${KEY_COLUMNS}, copy_pending) SELECT ${PLACEHOLDERS}, 1 ` +
          "WHERE (?12 IS NULL OR EXISTS (SELECT 1 FROM sales_agents WHERE id = ?12))" +
          (claim ? ` AND ${claim.proof}` : ""),
      )
      .bind(...values(record));
    const entry = claim
      ? entryOf("enroll", record, record.created_at, actor, null, claim.codeId)
      : entryOf("create", record, record.created_at, actor, null);
    const statements = [insert, auditStatement(this.db, entry, record.id), this.readStatement(record.id)];
    const results = await this.db.batch<VersionedRow>(claim ? [claim.statement, ...statements] : statements);
    return toVersioned(results.at(-1)?.results[0]);
  }

  /** The legacy carry-over: records already here are left as they are. */
  async insertMissing(records: KeyRecord[]): Promise<void> {
    if (records.length === 0) return;
    const insert = this.db.prepare(`INSERT OR IGNORE INTO api_keys (${KEY_COLUMNS}) VALUES (${PLACEHOLDERS})`);
    await this.db.batch(records.map((r) => insert.bind(...values(r))));
  }

  /** Null when the old key was no longer active at `now`. The unique rolled_from decides two rolls that both passed
   * the store's check: one commits, the other's batch fails and changes nothing. */
  async roll(
    old: KeyRecord,
    next: KeyRecord,
    oldExpiresAt: string,
    now: string,
    actor: Actor,
  ): Promise<{ next: VersionedRecord; old: VersionedRecord } | null> {
    // A roll cancels a rotation that was due (docs/specification.md section 9).
    return this.replace(old, next, oldExpiresAt, now, {
      action: "roll",
      actor,
      oldColumns: "rotation_state = CASE WHEN rotation_state = 'due' THEN 'rolled' ELSE rotation_state END",
      oldParams: [],
    });
  }

  /** A roll or a rotation, one batch: the new key (only while the old one is active at `now`), `alsoNext` on it, the
   * old key pointed at it (its own columns from ?4 on), the audit row (only if the new key exists), both read back.
   * Null when the old key was no longer active, or when another roll or rotation of it committed first (the unique
   * rolled_from fails this batch, which changes nothing). */
  protected async replace(
    old: KeyRecord,
    next: KeyRecord,
    oldExpiresAt: string,
    now: string,
    how: { action: "roll" | "rotate"; actor: Actor; oldColumns: string; oldParams: unknown[]; alsoNext?: string },
  ): Promise<{ next: VersionedRecord; old: VersionedRecord } | null> {
    const insert = this.db
      .prepare(
        `INSERT INTO api_keys (${KEY_COLUMNS}, copy_pending) SELECT ${PLACEHOLDERS}, 1 WHERE EXISTS (SELECT 1 FROM api_keys ` +
          "WHERE id = ?9 AND revoked_at IS NULL AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > ?14))",
      )
      .bind(...values(next), now);
    const alsoNext = how.alsoNext
      ? [this.db.prepare(`UPDATE api_keys SET ${how.alsoNext} WHERE id = ?1`).bind(next.id)]
      : [];
    const update = this.db
      .prepare(
        `UPDATE api_keys SET replaced_by = ?1, expires_at = ?2, ${how.oldColumns}, ${MARK} ` +
          "WHERE id = ?3 AND replaced_by IS NULL AND EXISTS (SELECT 1 FROM api_keys WHERE id = ?1)",
      )
      .bind(next.id, oldExpiresAt, old.id, ...how.oldParams);
    const audit = auditStatement(this.db, entryOf(how.action, old, now, how.actor, next), next.id);
    try {
      const results = await this.db.batch<VersionedRow>([
        insert,
        ...alsoNext,
        update,
        audit,
        this.readStatement(next.id),
        this.readStatement(old.id),
      ]);
      const [nextNow, oldNow] = [this.versioned(results.at(-2)), this.versioned(results.at(-1))];
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
      revokeAuditStatement(this.db, id, now, actor),
      // A revoked key stops: the sealed successor secret of its rotation goes with it.
      this.db
        .prepare(
          `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?1), successor_secret_sealed = NULL, ${MARK} WHERE id = ?2`,
        )
        .bind(now, id),
      this.readStatement(id),
    ]);
    return toVersioned(read?.results[0]);
  }

  /** Clears the mark only if the record is still at `version`, so a newer change's mark stays; the caller compares
   * the version read back, and a newer one means the copy must be written again. */
  async confirm(id: string, version: number): Promise<VersionedRecord | null> {
    const [, read] = await this.db.batch<VersionedRow>([
      this.db
        .prepare("UPDATE api_keys SET copy_pending = 0 WHERE id = ?1 AND version = ?2 AND copy_pending <> 0")
        .bind(id, version),
      this.readStatement(id),
    ]);
    return toVersioned(read?.results[0]);
  }

  /** The version moves too, so that another writer's confirmation of an older read cannot clear this mark. */
  async mark(id: string): Promise<void> {
    await this.db.prepare(`UPDATE api_keys SET ${MARK} WHERE id = ?1`).bind(id).run();
  }

  /** Reads only the partial indexes on copy_pending and on the due keys (a rotation's marks). */
  async pending(afterId: string, limit: number): Promise<VersionedRecord[]> {
    const { results } = await this.db
      .prepare(
        `SELECT * FROM (SELECT ${VERSIONED_COLUMNS} FROM api_keys WHERE copy_pending = 1 AND id > ?1 ORDER BY id LIMIT ?2) ` +
          `UNION ALL SELECT * FROM (SELECT ${VERSIONED_COLUMNS} FROM api_keys WHERE rotation_state = 'due' ` +
          "AND copy_pending = 2 AND id > ?1 ORDER BY id LIMIT ?2) ORDER BY id LIMIT ?2",
      )
      .bind(afterId, limit)
      .all<VersionedRow>();
    return results.map((row) => toVersioned(row)!);
  }

  protected readStatement(id: string): D1PreparedStatement {
    return this.db.prepare(`${this.readSql()} WHERE id = ?1`).bind(id);
  }

  protected readSql(): string {
    return `SELECT ${VERSIONED_COLUMNS} FROM api_keys`;
  }

  protected versioned(result: D1Result | undefined): VersionedRecord | null {
    return toVersioned((result?.results as VersionedRow[] | undefined)?.[0]);
  }
}
