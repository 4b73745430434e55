// The KV copy of a key record, as authentication reads it. A copy written before scopes and agents
// existed has neither member and reads as both scopes and no agent: those keys keep working untouched.
import { storedScopes } from "./keys.rules.ts";
import type { KeyRecord, RotationFields } from "./keys.record.ts";
import { rotationOfCopy } from "./keys.rotation.record.ts";
import { BoundedLru } from "../platform/lib/lru.ts";
import { clearFirstUseReports } from "./keys.rotation.ts";

export type StoredCopy = Omit<KeyRecord, "scopes" | "agent_id" | "lineage_id" | RotationFields> & {
  scopes?: unknown;
  agent_id?: unknown;
  lineage_id?: unknown;
} & Partial<Pick<KeyRecord, RotationFields>>;

export function fromCopy(stored: StoredCopy): KeyRecord {
  const agent = stored.agent_id;
  return {
    ...stored,
    scopes: storedScopes(stored.scopes),
    agent_id: typeof agent === "number" && Number.isSafeInteger(agent) && agent > 0 ? agent : null,
    // A copy written before lineages existed stands for its own until the job rewrites it (migration 0019).
    lineage_id: typeof stored.lineage_id === "string" ? stored.lineage_id : stored.id,
    ...rotationOfCopy(stored),
  };
}

export const ISOLATE_KEY_TTL_MS = 10_000;
export const ISOLATE_KEY_CACHE_SIZE = 2_000;
/** Short, so a key made elsewhere soon works here; long enough that an unknown key in a loop costs few KV reads. */
export const UNKNOWN_KEY_TTL_MS = 5_000;
export const UNKNOWN_KEY_CACHE_SIZE = 1_000;

// Kept apart so that random well-formed keys fill only `unknown` and never push a real key out.
const known = new BoundedLru<KeyRecord>(ISOLATE_KEY_CACHE_SIZE, ISOLATE_KEY_TTL_MS);
const unknown = new BoundedLru<true>(UNKNOWN_KEY_CACHE_SIZE, UNKNOWN_KEY_TTL_MS);

/** null: known to be no key; undefined: not cached. */
export function cachedKey(hash: string, nowMs: number): KeyRecord | null | undefined {
  const record = known.get(hash, nowMs);
  if (record !== undefined) return record;
  return unknown.get(hash, nowMs) ? null : undefined;
}

// KEY_CACHE_SECONDS (0 to 10, else 10) may shorten the trust, never lengthen it: the revocation bound
// holds whatever is configured, and the e2e tests see a revocation reach a server without waiting.
export function keyCacheTtlMs(value: unknown): number {
  if (typeof value === "string" && /^[0-9]{1,2}$/.test(value) && Number(value) * 1000 <= ISOLATE_KEY_TTL_MS) {
    return Number(value) * 1000;
  }
  return ISOLATE_KEY_TTL_MS;
}

/** A "no such key" answer is kept for at most UNKNOWN_KEY_TTL_MS whatever ttlMs says. */
export function rememberKey(hash: string, record: KeyRecord | null, nowMs: number, ttlMs = ISOLATE_KEY_TTL_MS): void {
  // A hash is in one of the two at most: the newest answer replaces the other.
  if (record) {
    unknown.delete(hash);
    known.set(hash, record, nowMs, ttlMs);
  } else {
    known.delete(hash);
    unknown.set(hash, true, nowMs, Math.min(ttlMs, UNKNOWN_KEY_TTL_MS));
  }
}

export function forgetKey(hash: string): void {
  known.delete(hash);
  unknown.delete(hash);
}

/** For tests: as a new isolate starts. */
export function clearIsolateKeyCache(): void {
  known.clear();
  unknown.clear();
  clearIsolateDueSet();
  clearFirstUseReports();
}

export const DUE_SET_KEY = "rotation:due";

let knownDue: ReadonlySet<string> | undefined;

function idsOf(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [];
}

/** What a key-copy read brought along: the set as it is now. */
export function rememberDueSet(stored: unknown): void {
  knownDue = new Set(idsOf(stored));
}

/** The set this isolate read last; one read of its own only before any key-copy read brought it. */
export async function dueIds(kv: KVNamespace): Promise<ReadonlySet<string>> {
  if (!knownDue) rememberDueSet(await kv.get<unknown>(DUE_SET_KEY, "json"));
  return knownDue!;
}

export async function readDueSet(kv: KVNamespace): Promise<string[] | null> {
  const stored = await kv.get<unknown>(DUE_SET_KEY, "json");
  return stored === null ? null : idsOf(stored);
}

export async function writeDueSet(kv: KVNamespace, ids: readonly string[]): Promise<void> {
  await kv.put(DUE_SET_KEY, JSON.stringify(ids));
  knownDue = new Set(ids);
}

/** For tests: as a new isolate starts. */
export function clearIsolateDueSet(): void {
  knownDue = undefined;
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
