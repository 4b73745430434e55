// D1 and KV counted and timed for Server-Timing and the log (section 6); a binding's failure a DependencyError (503).
import { DependencyError, causeMessages } from "../errors.ts";
import { type AnyD1, interceptD1 } from "./d1-intercept.ts";

/** served_by_* only where D1 reports them (a deployed, replicated database). */
interface D1Meta {
  rows_read?: number;
  served_by_region?: string;
  served_by_primary?: boolean;
}

export class Meter {
  d1RoundTrips = 0;
  d1Ms = 0;
  /** D1's own `meta.rows_read`, what D1 bills and waits for, summed over batches too. */
  d1RowsRead = 0;
  d1ServedByRegion?: string;
  d1ServedByPrimary?: boolean;
  kvReads = 0;
  kvMs = 0;

  count(result: unknown): void {
    const meta = (result as { meta?: D1Meta } | null)?.meta;
    if (!meta) return;
    if (typeof meta.rows_read === "number") this.d1RowsRead += meta.rows_read;
    if (typeof meta.served_by_region === "string") this.d1ServedByRegion = meta.served_by_region;
    if (typeof meta.served_by_primary === "boolean") this.d1ServedByPrimary = meta.served_by_primary;
  }

  async d1<T>(work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } catch (err) {
      // Constraint failures are answers about the data (e.g. a duplicate); callers handle them.
      if (/constraint failed/i.test(causeMessages(err))) throw err;
      throw new DependencyError("database", { cause: err });
    } finally {
      this.d1RoundTrips++;
      this.d1Ms += performance.now() - start;
    }
  }

  async kvRead<T>(dependency: DependencyError["dependency"], work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } catch (err) {
      throw new DependencyError(dependency, { cause: err });
    } finally {
      this.kvReads++;
      this.kvMs += performance.now() - start;
    }
  }
}

// raw() and first() return no meta, so they are answered from all(), which reads the same rows: raw() as values in
// column order (safe because multi-table selects alias their columns, db/columns.ts).
async function metered(stmt: D1PreparedStatement, method: string, args: unknown[], meter: Meter): Promise<unknown> {
  if (method === "run" || method === "all") {
    const result = await (method === "run" ? stmt.run() : stmt.all());
    meter.count(result);
    return result;
  }
  const result = await stmt.all<Record<string, unknown>>();
  meter.count(result);
  // Not a D1 result (a driver fault): handed on as it is, for the caller to refuse.
  if (!Array.isArray(result?.results)) return result;
  if (method === "raw") {
    const rows = result.results.map((row) => Object.values(row));
    const options = args[0] as { columnNames?: boolean } | undefined;
    return options?.columnNames ? [Object.keys(result.results[0] ?? {}), ...rows] : rows;
  }
  const row = result.results[0] ?? null;
  const column = args[0];
  return typeof column === "string" ? (row?.[column] ?? null) : row;
}

/** A D1 database (or session) whose every statement execution and batch is one metered round trip. */
export function meterD1<T extends AnyD1>(db: T, meter: Meter): T {
  return interceptD1(db, {
    execute: (stmt, method, args) => meter.d1(() => metered(stmt, method, args, meter)),
    batch: (statements) =>
      meter.d1(async () => {
        const results = await db.batch(statements);
        // Counting never fails a request: an answer that is not a list is the caller's to refuse.
        if (Array.isArray(results)) for (const result of results) meter.count(result);
        return results;
      }),
    members: { exec: (query: string) => meter.d1(() => (db as D1Database).exec(query)) },
  });
}

/** A KV namespace whose reads are metered; writes are not counted (they run after the response). */
export function meterKV(kv: KVNamespace, meter: Meter, dependency: DependencyError["dependency"]): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getWithMetadata" || prop === "list") {
        return (...args: unknown[]) => meter.kvRead(dependency, () => value.apply(target, args));
      }
      return value.bind(target);
    },
  });
}
