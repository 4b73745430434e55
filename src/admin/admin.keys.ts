// What an administrator can do with keys: shared by the JSON admin API and the dashboard's forms,
// both over the key store (as the keys command line is). The store is the only judge of key rules
// (names, modes, expiries, graces, which keys can be rolled); this module reads a request's fields
// for it, lets its 422 and 409 through, and answers 404 for a key that is not there.
import { ApiError, errors, type FieldError } from "../platform/errors.ts";
import { checkNewKey, checkSeconds } from "../keys/keys.rules.ts";
import { KEY_ID_PATTERN } from "../keys/keys.secret.ts";
import { type AuditEntry, type KeyActor, type KeyRecord, type KeyStore, type KeyWithUsage, publicRecord } from "../keys/keys.store.ts";

/**
 * A key as an answer shows it. `copy_pending`: the copy that authentication reads is not yet known
 * to match the record (docs/specification.md section 2, "The copy follows the record").
 */
export type AdminKey = ReturnType<typeof publicRecord<KeyRecord>> & { copy_pending: boolean };
/** A key as the listings show it: with last_used_at, requests_24h, requests_7d and requests_daily. */
export type AdminKeyWithUsage = AdminKey & {
  last_used_at: string | null;
  requests_24h: number;
  requests_7d: number;
  /** Requests per UTC day, oldest first, the last 30 days (today included). */
  requests_daily: { date: string; requests: number }[];
};
/** A key just made (created or rolled): the only time its secret is shown. */
export type NewKey = AdminKey & { secret: string };

export function view(store: KeyStore, record: KeyRecord, copyPending: boolean): AdminKey {
  return { ...publicRecord(record, store.stateOf(record)), copy_pending: copyPending };
}

/** Every key, oldest first, with its use (two D1 statements in one batch). */
export async function listKeysWithUsage(store: KeyStore): Promise<AdminKeyWithUsage[]> {
  return (await store.listWithUsage()).map((record: KeyWithUsage) => {
    const { daily, ...rest } = publicRecord(record, store.stateOf(record));
    return { ...rest, requests_daily: daily };
  });
}

/** The newest audit entries, newest first; `limit` as the query string gave it (absent: 50). */
export function auditEntries(store: KeyStore, limit: string | undefined): Promise<AuditEntry[]> {
  // Only plain digits are a number; anything else reaches the store's check as text (a 422 on limit).
  const parsed = limit === undefined ? undefined : /^\d{1,6}$/.test(limit) ? Number(limit) : limit;
  return store.audit(parsed as number | undefined);
}

/**
 * Makes a key from a request's { name, mode, expires_in?, scopes?, agent_id? } (expires_in null or
 * absent: none; scopes absent: read and write; agent_id null or absent: no agent).
 */
export async function createKey(store: KeyStore, body: unknown, actor: KeyActor): Promise<NewKey> {
  const input = readFields(body, ["name", "mode", "expires_in", "scopes", "agent_id"], (fields) =>
    checkNewKey({
      name: fields.name,
      mode: fields.mode,
      expiresInSeconds: fields.expires_in,
      scopes: fields.scopes,
      agentId: fields.agent_id,
    }),
  );
  const { record, secret, copyPending } = await store.create(input, actor);
  return { ...view(store, record, copyPending), secret };
}

/** Rolls a key from a request's { grace? } (absent: the store's default grace). */
export async function rollKey(store: KeyStore, id: string, body: unknown, actor: KeyActor): Promise<NewKey> {
  const grace = readFields(body, ["grace"], (fields) =>
    fields.grace === undefined ? undefined : checkSeconds("grace", fields.grace, 0),
  );
  const created = await store.roll(id, grace, actor);
  if (!created) throw unknownKey(id);
  return { ...view(store, created.record, created.copyPending), secret: created.secret };
}

/**
 * Revokes a key at once; revoking a revoked key keeps its revocation and writes its copy again.
 * A copy that could not be written is no error: the revocation stands, and the answer says pending.
 */
export async function revokeKey(store: KeyStore, id: string, actor: KeyActor): Promise<AdminKey> {
  const revoked = await store.revoke(id, actor);
  if (!revoked) throw unknownKey(id);
  return view(store, revoked.record, revoked.copyPending);
}

export async function findKey(store: KeyStore, id: string): Promise<KeyRecord> {
  // The store answers null for an id that cannot be a key's without a read.
  const record = await store.get(id);
  if (!record) throw unknownKey(id);
  return record;
}

function unknownKey(id: string) {
  // Only an id of the key-id form is echoed back.
  return errors.notFound(KEY_ID_PATTERN.test(id) ? `No key with id ${id}` : "No key with that id");
}

/**
 * The fields of a JSON object body, read by `read` (which runs the store's rules on them). A body
 * that is not an object is a 422; so is one with other fields, and that 422 also lists whatever
 * the rules find wrong with the fields it has.
 */
function readFields<F extends string, T>(body: unknown, allowed: readonly F[], read: (fields: Partial<Record<F, unknown>>) => T): T {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.validation([{ field: "request", message: "must be a JSON object" }]);
  }
  const fields = body as Partial<Record<F, unknown>>;
  const others = Object.keys(body).filter((name) => !(allowed as readonly string[]).includes(name));
  if (others.length === 0) return read(fields);
  const problems: FieldError[] = [];
  try {
    read(fields);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    problems.push(...(err.options.fields ?? []));
  }
  throw errors.validation([...problems, { field: "request", message: `has unknown field(s): ${others.join(", ")}` }]);
}
