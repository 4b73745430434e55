// What an administrator can do with keys, with its input rules: shared by the JSON admin API and
// the dashboard's forms, both over the key store module (as the keys command line is).
import { z } from "zod";
import { fieldErrors } from "../middleware/errors.ts";
import { errors } from "../lib/errors.ts";
import { KEY_MODES } from "../keys/secret.ts";
import {
  DEFAULT_GRACE_SECONDS,
  type KeyActor,
  type KeyRecord,
  type KeyStore,
  MAX_LIFETIME_SECONDS,
  MAX_NAME_LENGTH,
  publicRecord,
} from "../keys/store.ts";
const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;

export type AdminKey = ReturnType<typeof publicRecord>;
/** A key just made (created or rolled): the only time its secret is shown. */
export type NewKey = AdminKey & { secret: string };

function seconds(min: number) {
  const error = `must be a whole number of seconds from ${min} to ${MAX_LIFETIME_SECONDS}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(MAX_LIFETIME_SECONDS, { error });
}

const objectError = (issue: { code: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `has unknown field(s): ${(issue.keys ?? []).join(", ")}` : "must be a JSON object";

export const createKeyInput = z.strictObject(
  {
    name: z
      .string({ error: "is required: a name that says who or what uses the key" })
      .trim()
      .min(1, { error: "must not be empty" })
      .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` })
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]*$/, { error: "must not contain control characters" }),
    mode: z.enum(KEY_MODES, { error: `must be one of ${KEY_MODES.join(", ")}` }),
    expires_in: seconds(1).nullable().optional(),
  },
  { error: objectError },
);

export const rollKeyInput = z.strictObject(
  { grace: seconds(0).optional() },
  { error: objectError },
);

export type CreateKeyInput = z.infer<typeof createKeyInput>;
export type RollKeyInput = z.infer<typeof rollKeyInput>;

/** Parses input against a schema: a 422 listing every broken field otherwise. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw errors.validation(fieldErrors(result.error));
  return result.data;
}

export function view(store: KeyStore, record: KeyRecord): AdminKey {
  return publicRecord(record, store.stateOf(record));
}

export async function listKeys(store: KeyStore): Promise<AdminKey[]> {
  return (await store.list()).map((record) => view(store, record));
}

export async function createKey(store: KeyStore, input: CreateKeyInput, actor: KeyActor): Promise<NewKey> {
  const { record, secret } = await store.create(
    {
      name: input.name,
      mode: input.mode,
      expiresInSeconds: input.expires_in ?? null,
    },
    actor,
  );
  return { ...view(store, record), secret };
}

/** Rolls an active key; a key already rolled, expired or revoked is a conflict (make a new one). */
export async function rollKey(store: KeyStore, id: string, input: RollKeyInput, actor: KeyActor): Promise<NewKey> {
  // A malformed id is a 404 without a read; the store decides the rest in one conditional D1 batch.
  if (!KEY_ID.test(id)) throw unknownKey(id);
  const created = await store.roll(id, input.grace ?? DEFAULT_GRACE_SECONDS, actor);
  if (!created) throw unknownKey(id);
  return { ...view(store, created.record), secret: created.secret };
}

/** Revokes a key at once; revoking a revoked key changes nothing and answers the same. */
export async function revokeKey(store: KeyStore, id: string, actor: KeyActor): Promise<AdminKey> {
  await findKey(store, id);
  const revoked = await store.revoke(id, actor);
  if (!revoked) throw unknownKey(id);
  return view(store, revoked);
}

export async function findKey(store: KeyStore, id: string): Promise<KeyRecord> {
  // A malformed id is unknown without a KV read (and is never echoed back).
  const record = KEY_ID.test(id) ? await store.get(id) : null;
  if (!record) throw unknownKey(id);
  return record;
}

function unknownKey(id: string) {
  return errors.notFound(KEY_ID.test(id) ? `No key with id ${id}` : "No key with that id");
}
