// Enrollment codes (section 9): made, listed, revoked, exchanged once for a key; each change one batch with its audit.
import { codeAuditStatement, type KeyActor, checkActor } from "../keys/keys.audit.ts";
import type { KeyDatabase } from "../keys/keys.record.ts";
import { checkAgentId, checkMode, checkName, collect, MAX_NAME_LENGTH } from "../keys/keys.rules.ts";
import { parseScopes, scopesText, type Scope, storedScopes } from "../keys/keys.rules.ts";
import { type KeyMode, randomBase62 } from "../keys/keys.secret.ts";
import { type KeyRecord, type KeyStore } from "../keys/keys.store.ts";
import type { Services } from "../env.ts";
import { errors, type FieldError } from "../platform/errors.ts";
import { seal, unseal } from "../platform/lib/crypto.ts";
import { hashCode, newCode, normalizeCode } from "./enroll.code.ts";
import { codeQueries, type CodeRow, PENDING_AT_1 } from "./enroll.queries.ts";

export const CODE_EXPIRES_IN = { min: 300, max: 604_800, default: 86_400 } as const;
export const KEY_EXPIRES_IN = { min: 3_600, max: 63_072_000 } as const;
/** How long after its use a code answers the same key and secret again. */
export const RETRY_WINDOW_MS = 10 * 60 * 1000;
export const CODE_ID_PATTERN = /^enr_[0-9A-Za-z]{16}$/;
/** A code used, expired or revoked this long ago is deleted by the daily job (its audit entries stay). */
export const DEAD_CODE_RETENTION_DAYS = 90;
/** The new key's secret, kept for the retry window sealed under the code itself (never its stored hash). */
const SEALED_SECRET = { info: "enrollment-secret-v1" };

export type CodeStatus = "pending" | "used" | "expired" | "revoked";

export interface EnrollmentCode extends Omit<CodeRow, "code_hash" | "scopes" | `secret_${"sealed" | "salt" | "iv"}`> {
  scopes: Scope[];
  status: CodeStatus;
}

/** The only answer that ever shows a code: the fields of docs/specification.md section 9, in its order. */
export interface NewEnrollmentCode {
  id: string;
  code: string;
  agent_id: number;
  mode: KeyMode;
  scopes: Scope[];
  name: string;
  expires_at: string;
  status: CodeStatus;
}

/** Why an exchange was refused; "agent" when the code's sales agent no longer exists. */
export type Refusal = "unknown" | "expired" | "used" | "revoked" | "agent";

export type Exchange =
  { outcome: "made" | "again"; record: KeyRecord; secret: string } | { outcome: "refused"; why: Refusal };

/** The enrollment codes of a request: written to D1's primary, keys made by the request's key store. */
export function enrollmentsFor(services: Pick<Services, "primaryDb" | "keys">): Enrollments {
  return new Enrollments(services.primaryDb.$client, services.keys);
}

export class Enrollments {
  constructor(
    private readonly db: KeyDatabase,
    private readonly keys: KeyStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One 422 naming every broken field; the agent's existence is checked by the insert. */
  async create(body: Record<string, unknown>, actor: KeyActor): Promise<NewEnrollmentCode> {
    const who = checkActor(actor);
    const input = checkNewCode(body);
    const code = newCode();
    const now = this.now();
    const id = `enr_${randomBase62(16)}`;
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + input.expiresIn * 1000).toISOString();
    const hash = await hashCode(normalizeCode(code)!);
    const { mode, name, keyExpiresIn } = input;
    const values = [id, hash, mode, scopesText(input.scopes), name, keyExpiresIn, at, expiresAt];
    const insert = codeQueries.insert(this.db, values, input.agentId, MAX_NAME_LENGTH);
    const [inserted] = await this.db.batch<CodeRow>([
      insert,
      codeAuditStatement(this.db, { at, action: "enroll-code", codeId: id }, who, "1"),
    ]);
    const row = inserted?.results[0];
    if (!row) {
      throw errors.validation([
        {
          field: "agent_id",
          message: `must be an existing sales agent's id: there is no sales agent ${input.agentId}`,
        },
      ]);
    }
    const made = this.view(row);
    return {
      id,
      code,
      agent_id: made.agent_id,
      mode: made.mode,
      scopes: made.scopes,
      name: made.name,
      expires_at: made.expires_at,
      status: made.status,
    };
  }

  async get(id: string): Promise<EnrollmentCode | null> {
    if (!CODE_ID_PATTERN.test(id)) return null;
    const row = await codeQueries.get(this.db, id).first<CodeRow>();
    return row ? this.view(row) : null;
  }

  /** One page, newest first, after `before`: `size` + 1 index rows however many codes; `older` the next page's. */
  async listPage(before: string | null, size: number): Promise<{ codes: EnrollmentCode[]; older: string | null }> {
    const after = before !== null && CODE_ID_PATTERN.test(before) ? before : null;
    const { results } = await codeQueries.page(this.db, after, size + 1).all<CodeRow>();
    const codes = results.slice(0, size).map((row) => this.view(row));
    return { codes, older: results.length > size ? codes.at(-1)!.id : null };
  }

  /** Null for an unknown code. Revoking a revoked code changes nothing; a used or expired one is a 409. */
  async revoke(id: string, actor: KeyActor): Promise<EnrollmentCode | null> {
    const who = checkActor(actor);
    if (!CODE_ID_PATTERN.test(id)) return null;
    const at = this.now().toISOString();
    const [, , read] = await this.db.batch<CodeRow>([
      codeAuditStatement(this.db, { at, action: "revoke-code", codeId: id }, who, PENDING_AT_1),
      codeQueries.revoke(this.db, id, at),
      codeQueries.get(this.db, id),
    ]);
    const row = read?.results[0];
    if (!row) return null;
    const code = this.view(row);
    if (code.status === "used" || code.status === "expired") {
      throw errors.conflict(`Enrollment code ${id} is ${code.status}: only a pending code can be revoked`);
    }
    return code;
  }

  /** Exchanges a code as sent (any case, dashes or not) for a new key, or answers the same key and secret again
   * within RETRY_WINDOW_MS of its use. Two exchanges at once: one makes the key, the other answers it again. */
  async exchange(sent: string, deviceName: string | null): Promise<Exchange> {
    const code = normalizeCode(sent);
    if (code === null) return { outcome: "refused", why: "unknown" };
    const hash = await hashCode(code);
    for (let round = 0; round < 2; round++) {
      const row = await codeQueries.byHash(this.db, hash).first<CodeRow>();
      if (!row) return { outcome: "refused", why: "unknown" };
      const status = this.statusOf(row);
      if (status === "used") return this.again(row, code);
      if (status !== "pending") return { outcome: "refused", why: status };
      const made = await this.claim(row, code, deviceName);
      if (made) return { outcome: "made", record: made.record, secret: made.secret };
      // Lost to another exchange, a revocation or the expiry meanwhile: judged again from the row as it is now.
    }
    return { outcome: "refused", why: "agent" };
  }

  /** The daily job's part: codes stopped over 90 days ago, in chunks; expiry (at most 7 days on) bounds the scan. */
  async deleteDeadCodes(): Promise<number> {
    const day = 86_400_000;
    const now = this.now().getTime();
    const before = new Date(now - DEAD_CODE_RETENTION_DAYS * day).toISOString();
    const bound = new Date(now - DEAD_CODE_RETENTION_DAYS * day + CODE_EXPIRES_IN.max * 1000).toISOString();
    let deleted = 0;
    for (let chunk = 0; chunk < 5; chunk++) {
      const { meta } = await codeQueries.deleteDead(this.db, before, bound).run();
      deleted += meta.changes ?? 0;
      if ((meta.changes ?? 0) < 500) break;
    }
    return deleted;
  }

  /** The daily job's part: sealed secrets past the retry window. */
  async eraseSealedSecrets(): Promise<number> {
    const cutoff = new Date(this.now().getTime() - RETRY_WINDOW_MS).toISOString();
    const { meta } = await codeQueries.eraseSecretsUsedBy(this.db, cutoff).run();
    return meta.changes ?? 0;
  }

  private async claim(row: CodeRow, code: string, deviceName: string | null) {
    const device = deviceName?.trim() ?? "";
    // Any length is accepted and cut, by code points so that no character is split (section 9).
    const name = Array.from(device === "" ? row.name : `${row.name} (${device})`)
      .slice(0, MAX_NAME_LENGTH)
      .join("");
    const at = this.now().toISOString();
    return this.keys.createClaimed(
      {
        name,
        mode: row.mode,
        expiresInSeconds: row.key_expires_in,
        scopes: storedScopes(row.scopes),
        agentId: row.agent_id,
      },
      async (record, secret) => {
        const box = await seal(code, secret, SEALED_SECRET);
        const statement = codeQueries.use(this.db, row.id, at, record.id, box);
        return { codeId: row.id, statement, proof: codeQueries.usedProof };
      },
    );
  }

  private async again(row: CodeRow, code: string): Promise<Exchange> {
    const usedMs = Date.parse(row.used_at!);
    const within = this.now().getTime() - usedMs < RETRY_WINDOW_MS;
    if (!within || row.secret_sealed === null || row.secret_salt === null || row.secret_iv === null) {
      if (row.secret_sealed !== null) {
        await codeQueries.eraseSecret(this.db, row.id).run();
      }
      return { outcome: "refused", why: "used" };
    }
    const secret = await unseal(
      code,
      { sealed: row.secret_sealed, salt: row.secret_salt, iv: row.secret_iv },
      SEALED_SECRET,
    );
    const record = row.key_id === null ? null : await this.keys.get(row.key_id);
    if (secret === null || record === null) return { outcome: "refused", why: "used" };
    return { outcome: "again", record, secret };
  }

  private statusOf(row: CodeRow): CodeStatus {
    if (row.revoked_at !== null) return "revoked";
    if (row.used_at !== null) return "used";
    if (row.expires_at <= this.now().toISOString()) return "expired";
    return "pending";
  }

  private view(row: CodeRow): EnrollmentCode {
    return {
      id: row.id,
      agent_id: row.agent_id,
      mode: row.mode,
      scopes: storedScopes(row.scopes),
      name: row.name,
      key_expires_in: row.key_expires_in,
      created_at: row.created_at,
      expires_at: row.expires_at,
      used_at: row.used_at,
      revoked_at: row.revoked_at,
      key_id: row.key_id,
      status: this.statusOf(row),
    };
  }
}

function checkNewCode(body: Record<string, unknown>) {
  const problems: FieldError[] = [];
  const known = ["agent_id", "mode", "scopes", "expires_in", "name", "key_expires_in"];
  const check = <T>(run: () => T): T | undefined => collect(problems, run);
  const agentId = check(() => {
    if (body.agent_id === undefined || body.agent_id === null) {
      throw errors.validation([
        { field: "agent_id", message: "is required: the sales agent the key will be bound to" },
      ]);
    }
    return checkAgentId(body.agent_id);
  });
  const mode = check(() => checkMode(body.mode));
  const scopes = check(() => parseScopes(body.scopes));
  const expiresIn = check(() => seconds("expires_in", body.expires_in, CODE_EXPIRES_IN, CODE_EXPIRES_IN.default));
  const keyExpiresIn = check(() => seconds("key_expires_in", body.key_expires_in, KEY_EXPIRES_IN, null));
  const name = check(() => (body.name === undefined || body.name === null ? null : checkName(body.name)));
  const others = Object.keys(body).filter((k) => !known.includes(k));
  if (others.length > 0) problems.push({ field: "request", message: `has unknown field(s): ${others.join(", ")}` });
  if (problems.length > 0) throw errors.validation(problems);
  return {
    agentId: agentId!,
    mode: mode!,
    scopes: scopes!,
    expiresIn: expiresIn!,
    keyExpiresIn: keyExpiresIn ?? null,
    name: name ?? null,
  };
}

function seconds<D extends number | null>(
  field: string,
  value: unknown,
  bounds: { min: number; max: number },
  fallback: D,
): number | D {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw errors.validation([
      { field, message: `must be a whole number of seconds from ${bounds.min} to ${bounds.max}` },
    ]);
  }
  return value;
}
