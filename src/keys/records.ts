// Key records in D1 (the api_keys table): the system of record. Each change is one D1 batch, so
// that it is atomic and conditional; the caller then writes the KV copy that authentication reads.
// Every change writes its audit-log row (./audit.ts) in the same batch.
import { causeMessages, errors } from "../lib/errors.ts";
import { type AuditEntry, auditStatement, type KeyActorName, revokeAuditStatement } from "./audit.ts";
import { scopesText, storedScopes } from "./scopes.ts";
import type { KeyDatabase, KeyRecord } from "./record.ts";

export const KEY_COLUMNS = "id, name, mode, prefix, hash, created_at, expires_at, revoked_at, rolled_from, replaced_by, scopes, agent_id";
const PLACEHOLDERS = KEY_COLUMNS.split(", ").map((_, i) => `?${i + 1}`).join(", ");

export interface KeyRow {
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
  };
}

function values(r: KeyRecord): unknown[] {
  return [r.id, r.name, r.mode, r.prefix, r.hash, r.created_at, r.expires_at, r.revoked_at, r.replaces, r.replaced_by, scopesText(r.scopes), r.agent_id];
}

/** The audit entry of a change to `record` (a create, or a roll whose new key is `next`). */
function entryOf(action: "create" | "roll", record: KeyRecord, at: string, actor: Actor, next: KeyRecord | null): AuditEntry {
  return {
    at,
    action,
    key_id: record.id,
    new_key_id: next?.id ?? null,
    key_name: record.name,
    mode: record.mode,
    actor: actor.actor,
    session_id: actor.sessionId,
  };
}

type Actor = { actor: KeyActorName; sessionId: string | null };

export class KeyRecords {
  constructor(private readonly db: KeyDatabase) {}

  async get(id: string): Promise<KeyRecord | null> {
    const row = await this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?1`).bind(id).first<KeyRow>();
    return row ? toRecord(row) : null;
  }

  /** Every key, oldest first. */
  async list(): Promise<KeyRecord[]> {
    const { results } = await this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`).all<KeyRow>();
    return results.map(toRecord);
  }

  /**
   * A new key and its audit entry, one batch. The insert is conditional on the key's sales agent
   * existing (when it has one): false, and nothing written, when it does not.
   */
  async insert(record: KeyRecord, actor: Actor): Promise<boolean> {
    const insert = this.db
      .prepare(
        `INSERT INTO api_keys (${KEY_COLUMNS}) SELECT ${PLACEHOLDERS} ` +
          "WHERE ?12 IS NULL OR EXISTS (SELECT 1 FROM sales_agents WHERE id = ?12)",
      )
      .bind(...values(record));
    const [inserted] = await this.db.batch([insert, auditStatement(this.db, entryOf("create", record, record.created_at, actor, null), record.id)]);
    return (inserted?.meta.changes ?? 0) === 1;
  }

  /** Records made before D1 held them (carried over from KV); ones already here are left as they are. */
  async insertMissing(records: KeyRecord[]): Promise<void> {
    if (records.length === 0) return;
    const insert = this.db.prepare(`INSERT OR IGNORE INTO api_keys (${KEY_COLUMNS}) VALUES (${PLACEHOLDERS})`);
    await this.db.batch(records.map((r) => insert.bind(...values(r))));
  }

  /**
   * The roll itself, one batch: the new key, inserted only while the old one is still active at
   * `now`, and the old key's replaced_by and shortened expiry. The unique rolled_from decides two
   * rolls that both passed the check: one commits, the other's batch fails and changes nothing.
   * False when the old key was no longer active (rolled, revoked or expired meanwhile).
   */
  async roll(old: KeyRecord, next: KeyRecord, oldExpiresAt: string, now: string, actor: Actor): Promise<boolean> {
    const insert = this.db
      .prepare(
        `INSERT INTO api_keys (${KEY_COLUMNS}) SELECT ${PLACEHOLDERS} WHERE EXISTS (SELECT 1 FROM api_keys ` +
          "WHERE id = ?9 AND revoked_at IS NULL AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > ?13))",
      )
      .bind(...values(next), now);
    const update = this.db
      .prepare("UPDATE api_keys SET replaced_by = ?1, expires_at = ?2 WHERE id = ?3 AND replaced_by IS NULL AND EXISTS (SELECT 1 FROM api_keys WHERE id = ?1)")
      .bind(next.id, oldExpiresAt, old.id);
    try {
      const audit = auditStatement(this.db, entryOf("roll", old, now, actor, next), next.id);
      const [inserted] = await this.db.batch([insert, update, audit]);
      return (inserted?.meta.changes ?? 0) === 1;
    } catch (err) {
      if (/UNIQUE constraint failed: api_keys\.rolled_from/.test(causeMessages(err))) return false;
      throw err;
    }
  }

  /**
   * Sets revoked_at unless it is set already; the record as it now is (null for an unknown id). The
   * audit entry is written only by the revocation that sets it.
   */
  async revoke(id: string, now: string, actor: Actor): Promise<KeyRecord | null> {
    const [, , read] = await this.db.batch<KeyRow>([
      revokeAuditStatement(this.db, id, now, actor),
      this.db.prepare("UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?1) WHERE id = ?2").bind(now, id),
      this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?1`).bind(id),
    ]);
    const row = read?.results[0];
    return row ? toRecord(row) : null;
  }
}

/** The 409 for a key that cannot be rolled, saying why. */
export function notActive(record: KeyRecord, state: "grace" | "expired" | "revoked") {
  const why = state === "grace" ? `already rolled (its replacement is ${record.replaced_by})` : state;
  return errors.conflict(`Key ${record.id} is ${why}: only an active key can be rolled`);
}
