// Rotation's statements on the key records (docs/specification.md section 9): each change one D1 batch with its audit
// rows, its copy marks and the records read back, like keys.records.ts.
import type { KeyActorName } from "./keys.audit.ts";
import type { KeyDatabase, KeyRecord } from "./keys.record.ts";
import { KeyRecords, MARK, ROTATION_MARK, type VersionedRecord } from "./keys.records.ts";
import type { KeyMode } from "./keys.secret.ts";

type Actor = { actor: KeyActorName; sessionId: string | null };

export interface RotationFilter {
  ids: string[] | null;
  mode: KeyMode | null;
  agentId: number | null;
}

/** ?1 now, ?2 ids (JSON), ?3 mode, ?4 agent id: an active key of the filter that no rotation has touched. */
const MARKABLE =
  "revoked_at IS NULL AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > ?1) AND rotation_state IS NULL " +
  "AND (?2 IS NULL OR id IN (SELECT value FROM json_each(?2))) AND (?3 IS NULL OR mode = ?3) AND (?4 IS NULL OR agent_id = ?4)";

export class RotationRecords extends KeyRecords {
  constructor(private readonly database: KeyDatabase) {
    super(database);
  }

  /** The ids among `ids` that name no key. */
  async unknownIds(ids: string[]): Promise<string[]> {
    const { results } = await this.database
      .prepare("SELECT value AS id FROM json_each(?1) WHERE value NOT IN (SELECT id FROM api_keys)")
      .bind(JSON.stringify(ids))
      .all<{ id: string }>();
    return results.map((r) => r.id);
  }

  /** One audit row per key marked, written before the marks in the same batch, by the same condition. */
  async markDue(filter: RotationFilter, now: string, actor: Actor): Promise<{ requested: number; due: string[] }> {
    const params = [now, filter.ids && JSON.stringify(filter.ids), filter.mode, filter.agentId] as const;
    const [, marked, due] = await this.database.batch([
      this.database
        .prepare(
          "INSERT INTO key_audit (at, action, key_id, new_key_id, key_name, mode, actor, session_id) " +
            `SELECT ?1, 'rotation-requested', id, NULL, name, mode, ?5, ?6 FROM api_keys WHERE ${MARKABLE} ORDER BY id`,
        )
        .bind(...params, actor.actor, actor.sessionId),
      this.database
        // RETURNING, not meta.changes: D1 counts the changes of the key list's count triggers with the statement's.
        .prepare(
          `UPDATE api_keys SET rotation_state = 'due', rotation_requested_at = ?1, ${ROTATION_MARK} WHERE ${MARKABLE} RETURNING id`,
        )
        .bind(...params),
      this.dueStatement(),
    ]);
    return { requested: marked?.results.length ?? 0, due: idsOf(due) };
  }

  async getByHash(hash: string): Promise<KeyRecord | null> {
    return (
      this.versioned(await this.database.prepare(`${this.readSql()} WHERE hash = ?1`).bind(hash).all())?.record ?? null
    );
  }

  /** The backstop of a lost due-set write: each due key's copy rewritten, its state inside, by the job. */
  async markDueCopies(): Promise<void> {
    await this.database
      .prepare(`UPDATE api_keys SET ${MARK} WHERE rotation_state = 'due' AND revoked_at IS NULL`)
      .run();
  }

  /** Up to `limit` keys of the lineage that still authenticate at `now`, on the lineage index. */
  async workingOfLineage(lineageId: string, now: string, limit: number): Promise<string[]> {
    const { results } = await this.database
      .prepare(
        "SELECT id FROM api_keys WHERE lineage_id = ?1 AND revoked_at IS NULL " +
          "AND (expires_at IS NULL OR expires_at > ?2) ORDER BY id LIMIT ?3",
      )
      .bind(lineageId, now, limit)
      .all<{ id: string }>();
    return results.map((r) => r.id);
  }

  /** The keys of the filter whose rotation is due (and not revoked): what a request left due, for its report. */
  async countDue(filter: RotationFilter): Promise<number> {
    const row = await this.database
      .prepare(
        "SELECT count(*) AS n FROM api_keys WHERE rotation_state = 'due' AND revoked_at IS NULL " +
          "AND (?1 IS NULL OR id IN (SELECT value FROM json_each(?1))) AND (?2 IS NULL OR mode = ?2) AND (?3 IS NULL OR agent_id = ?3)",
      )
      .bind(filter.ids && JSON.stringify(filter.ids), filter.mode, filter.agentId)
      .first<{ n: number }>();
    return row?.n ?? 0;
  }

  async dueIds(): Promise<string[]> {
    return idsOf(await this.dueStatement().all());
  }

  /** The sealed successor secret, read only by the rotate that may answer it again. */
  async sealedSecret(id: string): Promise<string | null> {
    const row = await this.database
      .prepare("SELECT successor_secret_sealed AS sealed FROM api_keys WHERE id = ?1")
      .bind(id)
      .first<{ sealed: string | null }>();
    return row?.sealed ?? null;
  }

  /** Null when another rotate or a roll of the old key committed first, or it stopped being active. */
  async rotate(
    old: KeyRecord,
    next: KeyRecord,
    change: { oldExpiresAt: string; sealed: string | null; now: string },
  ): Promise<{ next: VersionedRecord; old: VersionedRecord } | null> {
    return this.replace(old, next, change.oldExpiresAt, change.now, {
      action: "rotate",
      actor: { actor: "key", sessionId: null },
      oldColumns: "rotation_state = 'rotated', rotated_at = ?4, successor_secret_sealed = ?5",
      oldParams: [change.now, change.sealed],
      // Its first use reaches the old key's record through reportFirstUse.
      alsoNext: "awaits_first_use = 1",
    });
  }

  /** The successor's first use cuts the old key to one more hour (never longer than its grace) and ends the retry,
   * so the sealed secret goes. Each record read back, or null where none was found. */
  async reportFirstUse(
    successorId: string,
    at: string,
    cut: string,
  ): Promise<{ old: VersionedRecord | null; successor: VersionedRecord | null }> {
    const [, , successor, old] = await this.database.batch([
      this.database
        .prepare(
          "UPDATE api_keys SET successor_first_used_at = ?2, successor_secret_sealed = NULL, " +
            `expires_at = CASE WHEN expires_at IS NULL OR expires_at > ?3 THEN ?3 ELSE expires_at END, ${MARK} ` +
            "WHERE replaced_by = ?1 AND rotation_state = 'rotated' AND successor_first_used_at IS NULL",
        )
        .bind(successorId, at, cut),
      this.database
        .prepare(`UPDATE api_keys SET awaits_first_use = 0, ${MARK} WHERE id = ?1 AND awaits_first_use = 1`)
        .bind(successorId),
      this.readStatement(successorId),
      this.database.prepare(`${this.readSql()} WHERE replaced_by = ?1`).bind(successorId),
    ]);
    return { successor: this.versioned(successor), old: this.versioned(old) };
  }

  /** A sealed secret is kept only while its old key can still ask for it again. */
  async eraseStoppedSecrets(now: string): Promise<number> {
    const result = await this.database
      .prepare(
        "UPDATE api_keys SET successor_secret_sealed = NULL WHERE successor_secret_sealed IS NOT NULL " +
          "AND (revoked_at IS NOT NULL OR (expires_at IS NOT NULL AND expires_at <= ?1))",
      )
      .bind(now)
      .run();
    return result.meta.changes ?? 0;
  }

  private dueStatement(): D1PreparedStatement {
    return this.database.prepare(
      "SELECT id FROM api_keys WHERE rotation_state = 'due' AND revoked_at IS NULL ORDER BY id",
    );
  }
}

function idsOf(result: D1Result | undefined): string[] {
  return ((result?.results ?? []) as { id: string }[]).map((r) => r.id);
}
