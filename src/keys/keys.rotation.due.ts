// The fleet's due set (docs/decisions.md, "A fleet rotation reaches every key in a minute"): one KV
// value holding the ids of every key whose rotation is due, written once per request that marks keys,
// read beside the key copies and trusted by an isolate as long as it trusts a key copy. The copies'
// own pending marks (the 5-minute job) are the backstop when this one write fails.

/** KV's edge cache for the set, the minimum: as for the key copies. */
const KV_CACHE_TTL_SECONDS = 30;
export const DUE_SET_KEY = "rotation:due";

let cached: { ids: ReadonlySet<string>; untilMs: number } | undefined;
let reading: Promise<ReadonlySet<string>> | undefined;

/** At most one KV read per isolate per ttlMs, shared by the requests that arrive while it runs. */
export async function dueIds(kv: KVNamespace, nowMs: number, ttlMs: number): Promise<ReadonlySet<string>> {
  if (cached && cached.untilMs > nowMs) return cached.ids;
  reading ??= (async () => {
    try {
      const stored = await kv.get<unknown>(DUE_SET_KEY, { type: "json", cacheTtl: KV_CACHE_TTL_SECONDS });
      const ids = new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : []);
      cached = { ids, untilMs: nowMs + ttlMs };
      return ids;
    } finally {
      reading = undefined;
    }
  })();
  return reading;
}

export async function readDueSet(kv: KVNamespace): Promise<string[] | null> {
  const stored = await kv.get<unknown>(DUE_SET_KEY, "json");
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : null;
}

export async function writeDueSet(kv: KVNamespace, ids: readonly string[]): Promise<void> {
  await kv.put(DUE_SET_KEY, JSON.stringify(ids));
  cached = undefined;
}

/** For tests: as a new isolate starts. */
export function clearIsolateDueSet(): void {
  cached = undefined;
  reading = undefined;
}
