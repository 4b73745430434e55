// A map bounded in size (least recently used out first) and in age (use does not extend it: it bounds staleness).

interface Entry<V> {
  value: V;
  until: number;
}

export class BoundedLru<V> {
  // Map order is use order: an entry is re-inserted last each time it is used.
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
  }

  get(key: string, nowMs: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.until <= nowMs) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, nowMs: number, ttlMs = this.ttlMs): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, until: nowMs + ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
