// The fleet's due set (docs/decisions.md, "A fleet rotation reaches every key through one KV value"):
// one KV value holding the ids of every key whose rotation is due, written by each change that marks
// or ends a rotation (and again by the 5-minute job). Authentication reads it in the same KV operation as a key's copy (a bulk get), so it costs no
// read of its own, and a key's answer never uses a set older than the key's own cached copy. The
// copies' pending marks (the 5-minute job) are the backstop when its write fails.

export const DUE_SET_KEY = "rotation:due";

let known: ReadonlySet<string> | undefined;

function idsOf(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [];
}

/** What a key-copy read brought along: the set as it is now. */
export function rememberDueSet(stored: unknown): void {
  known = new Set(idsOf(stored));
}

/** The set this isolate read last; one read of its own only before any key-copy read brought it. */
export async function dueIds(kv: KVNamespace): Promise<ReadonlySet<string>> {
  if (!known) rememberDueSet(await kv.get<unknown>(DUE_SET_KEY, "json"));
  return known!;
}

export async function readDueSet(kv: KVNamespace): Promise<string[] | null> {
  const stored = await kv.get<unknown>(DUE_SET_KEY, "json");
  return stored === null ? null : idsOf(stored);
}

export async function writeDueSet(kv: KVNamespace, ids: readonly string[]): Promise<void> {
  await kv.put(DUE_SET_KEY, JSON.stringify(ids));
  known = new Set(ids);
}

/** For tests: as a new isolate starts. */
export function clearIsolateDueSet(): void {
  known = undefined;
}
