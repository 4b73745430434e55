// The administrator's key actions, shared by the admin API and the dashboard: fields read for the store, 404s.
import { ApiError, errors, type FieldError } from "../platform/errors.ts";
import { checkRotationFilter } from "../keys/keys.rotation.ts";
import { checkNewKey, checkSeconds } from "../keys/keys.rules.ts";
import { KEY_ID_PATTERN } from "../keys/keys.secret.ts";
import {
  type AuditEntry,
  type KeyActor,
  type KeyRecord,
  type KeyStore,
  type KeyWithUsage,
  publicRecord,
} from "../keys/keys.store.ts";

/** `copy_pending`: docs/specification.md section 2, "The copy follows the record". */
export type AdminKey = ReturnType<typeof publicRecord<KeyRecord>> & { copy_pending: boolean };
export type AdminKeyWithUsage = AdminKey & {
  last_used_at: string | null;
  requests_24h: number;
  requests_7d: number;
  requests_daily: { date: string; requests: number }[];
};
/** The only answer that ever shows a secret. */
export type NewKey = AdminKey & { secret: string };

export function view(store: KeyStore, record: KeyRecord, copyPending: boolean): AdminKey {
  return { ...publicRecord(record, store.stateOf(record)), copy_pending: copyPending };
}

export async function listKeysWithUsage(store: KeyStore): Promise<AdminKeyWithUsage[]> {
  return (await store.listWithUsage()).map((record) => withUsageView(store, record));
}

export function withUsageView(store: KeyStore, record: KeyWithUsage): AdminKeyWithUsage {
  const { daily, ...rest } = publicRecord(record, store.stateOf(record));
  return { ...rest, requests_daily: daily };
}

export function auditEntries(store: KeyStore, limit: string | undefined): Promise<AuditEntry[]> {
  // Only plain digits are a number; anything else reaches the store's check as text (a 422 on limit).
  const parsed = limit === undefined ? undefined : /^\d{1,6}$/.test(limit) ? Number(limit) : limit;
  return store.audit(parsed as number | undefined);
}

export async function createKey(store: KeyStore, body: Record<string, unknown>, actor: KeyActor): Promise<NewKey> {
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

export async function rollKey(
  store: KeyStore,
  id: string,
  body: Record<string, unknown>,
  actor: KeyActor,
): Promise<NewKey> {
  const grace = readFields(body, ["grace"], (fields) =>
    fields.grace === undefined ? undefined : checkSeconds("grace", fields.grace, 0),
  );
  const created = await store.roll(id, grace, actor);
  if (!created) throw unknownKey(id);
  return { ...view(store, created.record, created.copyPending), secret: created.secret };
}

/** `{"ids"?, "mode"?, "agent_id"?}`: the keys to mark rotation due (docs/specification.md section 9). */
export async function requestRotation(
  store: KeyStore,
  body: Record<string, unknown>,
  actor: KeyActor,
): Promise<{ requested: number }> {
  const input = readFields(body, ["ids", "mode", "agent_id"], (fields) => {
    const request = { ids: fields.ids, mode: fields.mode, agentId: fields.agent_id };
    checkRotationFilter(request);
    return request;
  });
  return store.requestRotation(input, actor);
}

/** A copy that could not be written is no error: the revocation stands, and the answer says pending. */
export async function revokeKey(store: KeyStore, id: string, actor: KeyActor): Promise<AdminKey> {
  const revoked = await store.revoke(id, actor);
  if (!revoked) throw unknownKey(id);
  return view(store, revoked.record, revoked.copyPending);
}

/** A possibly copied key: its whole lineage revoked, the key first (section 9); safe to send twice. */
export async function revokeLineage(
  store: KeyStore,
  id: string,
  actor: KeyActor,
): Promise<{ record: KeyRecord; revoked: number }> {
  const done = await store.revokeLineage(id, actor);
  if (!done) throw unknownKey(id);
  return done;
}

export async function findKey(store: KeyStore, id: string): Promise<KeyRecord> {
  const record = await store.get(id);
  if (!record) throw unknownKey(id);
  return record;
}

function unknownKey(id: string) {
  // Only an id of the key-id form is echoed back.
  return errors.notFound(KEY_ID_PATTERN.test(id) ? `No key with id ${id}` : "No key with that id");
}

/** Unknown fields are a 422 that also lists whatever the store's rules find wrong with the known ones. */
function readFields<F extends string, T>(
  body: Record<string, unknown>,
  allowed: readonly F[],
  read: (fields: Partial<Record<F, unknown>>) => T,
): T {
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
