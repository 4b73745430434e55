// The typed client (`order-lookup-service/client`, usage in docs/api.md): Hono's `hc` over the
// worker's own route definitions, so callers are checked against what it serves.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { hc, type ClientRequestOptions } from "hono/client";
import type { AppEnv } from "./platform/env.ts";
import type { AppType } from "./api.ts";
import type { z } from "@hono/zod-openapi";
import type { EnrolledKeySchema } from "./enroll/enroll.schemas.ts";
import type { Change } from "./sync/sync.schemas.ts";

// hc demands every part a route describes (query, header, json, form) in every call, even an all-optional
// one; this lets such a part be left out. Type-only: nothing of the worker is bundled into a caller.
type OptionalParts<I> = { [K in keyof I as Partial<I[K]> extends I[K] ? K : never]?: I[K] } & {
  [K in keyof I as Partial<I[K]> extends I[K] ? never : K]: I[K];
};
type WithOptionalParts<E> = E extends { input: infer I } ? Omit<E, "input"> & { input: OptionalParts<I> } : E;
type Relaxed<S> = { [P in keyof S]: { [M in keyof S[P]]: WithOptionalParts<S[P][M]> } };
type SchemaOf<A> = A extends Hono<AppEnv, infer S> ? S : never;

/** The app's route type with all-optional parts made optional (paths without the /api prefix). */
export type ApiRoutes = OpenAPIHono<AppEnv, Relaxed<SchemaOf<AppType>>>;

export interface ClientOptions {
  fetch?: ClientRequestOptions["fetch"];
  /** Headers sent with every request besides Authorization. */
  headers?: Record<string, string>;
}

/** The API's root under `baseUrl`, the service's origin: its /api prefix added. */
function apiRoot(baseUrl: string | URL): string {
  return new URL("api", String(baseUrl).replace(/\/*$/, "/")).href;
}

/** `baseUrl` is the service's origin (e.g. "https://orders.example.com"): the /api prefix is added. */
export function createClient(baseUrl: string | URL, apiKey: string, options: ClientOptions = {}) {
  const root = apiRoot(baseUrl);
  return hc<ApiRoutes>(root, {
    fetch: options.fetch,
    headers: { ...options.headers, Authorization: `Bearer ${apiKey}` },
  });
}

export type ApiClient = ReturnType<typeof createClient>;

/** A key as POST /enroll answers it, with its secret (docs/specification.md section 9). */
export type EnrolledKey = z.infer<typeof EnrolledKeySchema>;

/** The service refused the exchange: `status` and the error envelope's `error` say why. */
export class EnrollmentError extends Error {
  override readonly name = "EnrollmentError";
  constructor(
    readonly status: number,
    readonly error: { code: string; description: string; status_code: number } | null,
  ) {
    super(error?.description ?? `POST /enroll answered ${status}`);
  }
}

/**
 * Exchanges an enrollment code (as scanned or typed: any case, dashes or not) for the phone's key. Safe to call
 * again with the same code when an answer was lost: within 10 minutes of its use it answers the same key and
 * secret (`status` 200 instead of 201).
 */
export async function exchangeEnrollmentCode(
  baseUrl: string | URL,
  code: string,
  deviceName?: string,
  options: Pick<ClientOptions, "fetch"> = {},
): Promise<{ status: 200 | 201; key: EnrolledKey }> {
  const root = apiRoot(baseUrl);
  const client = hc<ApiRoutes>(root, { fetch: options.fetch });
  const res = await client.enroll.$post({
    json: deviceName === undefined ? { code } : { code, device_name: deviceName },
  });
  const body = (await res.json().catch(() => null)) as { data?: EnrolledKey; error?: EnrollmentError["error"] } | null;
  if ((res.status === 200 || res.status === 201) && body?.data) return { status: res.status, key: body.data };
  throw new EnrollmentError(res.status, body?.error ?? null);
}

/** What the app keeps of a rotated key: its secret above all, stored before it is used. */
export interface RotatedKey {
  id: string;
  secret: string;
  replaces: string;
}

export interface KeyRotationOptions {
  /** The key the app has now. */
  secret: string;
  /** Stores the new key where the app keeps its secret; it is used only once this resolves. */
  store(key: RotatedKey): Promise<void>;
  fetch?: ClientRequestOptions["fetch"];
}

export interface KeyRotation {
  /** Give it to createClient (or call it): it sends the current key and rotates it once when told to. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The key in use now. */
  readonly secret: string;
}

/**
 * Carries out the rotation that the service asks for (docs/specification.md section 9): an answer with
 * `Key-Rotation: due` makes it call POST /keys/rotate once with the key in use, hand the successor to
 * `store`, and send the successor from then on. A lost rotate answer is retried the same way at the next
 * such answer (the old key still works and still says due), and gets the same successor again.
 */
export function keyRotation(baseUrl: string | URL, options: KeyRotationOptions): KeyRotation {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const rotateUrl = `${apiRoot(baseUrl)}/keys/rotate`;
  let secret = options.secret;
  let rotating: Promise<void> | null = null;

  async function rotate(old: string): Promise<void> {
    const res = await send(rotateUrl, { method: "POST", headers: { Authorization: `Bearer ${old}` } });
    if (res.status !== 200 && res.status !== 201) return;
    const { data } = (await res.json()) as { data: RotatedKey };
    await options.store({ id: data.id, secret: data.secret, replaces: data.replaces });
    if (secret === old) secret = data.secret;
  }

  return {
    get secret() {
      return secret;
    },
    async fetch(input, init) {
      const used = secret;
      const request = new Request(input, init);
      request.headers.set("Authorization", `Bearer ${used}`);
      const res = await send(request);
      if (res.headers.get("Key-Rotation") === "due" && used === secret) {
        // One rotate at a time; a failure (a lost answer) is left for the next answer that says due.
        rotating ??= rotate(used)
          .catch(() => undefined)
          .finally(() => (rotating = null));
        await rotating;
      }
      return res;
    },
  };
}

// The sync helper (docs/specification.md section 8, "In the typed client"): keeps an agent's book in a
// store that the app supplies, following cursors until caught up.

export type SyncChange = Change;
export type SyncRecordType = Change["type"];
export type SyncRecord = NonNullable<Change["data"]>;

/** The last cursor applied; `etag` is the answer's when it had no changes (a 304 then says the same). */
export interface SyncPosition {
  cursor: string;
  etag?: string;
  /** A walk over records already held, not finished: the helper starts it over (see sync). */
  resync?: true;
}

/** Where the app keeps its copy of the book (a database on a phone, a Map in a test). */
export interface SyncStore {
  get(type: SyncRecordType, id: number): Promise<SyncRecord | undefined>;
  put(type: SyncRecordType, id: number, record: SyncRecord): Promise<void>;
  delete(type: SyncRecordType, id: number): Promise<void>;
  /** The ids of the records held: a resync after a 410 drops those it did not deliver. */
  listIds(type: SyncRecordType): Promise<number[]>;
  getCursor(): Promise<SyncPosition | null>;
  putCursor(position: SyncPosition | null): Promise<void>;
  /** Forgets the records and the cursor (an app signing out). */
  clear(): Promise<void>;
}

/** A SyncStore in memory: for tests and small tools. */
export class MemorySyncStore implements SyncStore {
  readonly records = { customer: new Map<number, SyncRecord>(), order: new Map<number, SyncRecord>() };
  position: SyncPosition | null = null;

  async get(type: SyncRecordType, id: number) {
    return this.records[type].get(id);
  }
  async put(type: SyncRecordType, id: number, record: SyncRecord) {
    this.records[type].set(id, record);
  }
  async delete(type: SyncRecordType, id: number) {
    this.records[type].delete(id);
  }
  async listIds(type: SyncRecordType) {
    return [...this.records[type].keys()];
  }
  async getCursor() {
    return this.position;
  }
  async putCursor(position: SyncPosition | null) {
    this.position = position;
  }
  async clear() {
    this.records.customer.clear();
    this.records.order.clear();
    this.position = null;
  }
}

export interface SyncOptions {
  /** The agent whose book to sync; a key bound to an agent may leave it out. */
  salesagentId?: number;
  /** Records an answer, 1 to 1000 (the service's default: 200). */
  limit?: number;
}

export interface SyncResult {
  /** Answers applied (a 304 applies none). */
  pages: number;
  changes: number;
  /** The service answered 410 and the book was synced again from no cursor. */
  resynced: boolean;
  /** Records dropped after a walk over records already held: held, but not delivered by it. */
  removed: number;
}

/** An answer that the helper cannot apply: its status and error envelope. */
export class SyncError extends Error {
  override readonly name = "SyncError";
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`GET /sync answered ${status}`);
  }
}

/**
 * Brings the store up to date: asks with the stored cursor (and the ETag of a caught-up answer),
 * applies each answer's changes before storing its next_cursor, and asks again while has_more is true.
 * A walk from no cursor over records already held (after a 410, or a first sync cut short before its
 * first cursor was stored) ends by dropping every record it did not deliver. Which ones it delivered is
 * known only in memory, so a walk like that cut short is started over. Any other failure leaves the
 * store at the last answer applied: calling again resumes from there.
 */
export async function sync(api: ApiClient, store: SyncStore, options: SyncOptions = {}): Promise<SyncResult> {
  const result: SyncResult = { pages: 0, changes: 0, resynced: false, removed: 0 };
  let position = await store.getCursor();
  let delivered: Set<string> | null = null;
  if (position?.resync || (!position && (await holdsRecords(store)))) {
    position = null;
    delivered = new Set();
  }
  for (;;) {
    const query = {
      ...(options.salesagentId === undefined ? {} : { salesagent_id: String(options.salesagentId) }),
      ...(options.limit === undefined ? {} : { limit: String(options.limit) }),
      ...(position ? { cursor: position.cursor } : {}),
    };
    const headers: Record<string, string> = position?.etag ? { "If-None-Match": position.etag } : {};
    const res = await api.sync.$get({ query }, { headers });
    if (res.status === 304) break;
    if (res.status === 410 && !result.resynced) {
      delivered = new Set();
      result.resynced = true;
      position = null;
      continue;
    }
    if (res.status !== 200) throw new SyncError(res.status, await res.json().catch(() => null));
    const { data } = await res.json();
    for (const change of data.changes) {
      if (change.op === "upsert" && change.data) await store.put(change.type, change.id, change.data);
      else await store.delete(change.type, change.id);
      delivered?.add(`${change.type}:${change.id}`);
    }
    const caughtUp = data.changes.length === 0 && !data.has_more;
    const etag = res.headers.get("ETag");
    position = caughtUp && etag ? { cursor: data.next_cursor, etag } : { cursor: data.next_cursor };
    await store.putCursor(delivered ? { ...position, resync: true } : position);
    result.pages++;
    result.changes += data.changes.length;
    if (!data.has_more) break;
  }
  if (delivered) {
    for (const type of ["customer", "order"] as const) {
      for (const id of await store.listIds(type)) {
        if (delivered.has(`${type}:${id}`)) continue;
        await store.delete(type, id);
        result.removed++;
      }
    }
    await store.putCursor(position);
  }
  return result;
}

async function holdsRecords(store: SyncStore): Promise<boolean> {
  return (await store.listIds("customer")).length > 0 || (await store.listIds("order")).length > 0;
}
