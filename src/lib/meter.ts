// Thin wrappers around the D1 and KV bindings that count and time the work a request does, so that
// Server-Timing reports what really happened (SPEC.md section 6). They also tag failures of the
// binding as DependencyError, which the error handler answers with 503.
import { DependencyError, causeMessages } from "./errors.ts";

export class Meter {
  d1RoundTrips = 0;
  d1Ms = 0;
  kvReads = 0;
  kvMs = 0;

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

type AnyD1 = D1Database | D1DatabaseSession;
const EXECUTORS = new Set(["all", "raw", "run", "first"]);

/** A D1 database (or session) whose every statement execution and batch is one metered round trip. */
export function meterD1<T extends AnyD1>(db: T, meter: Meter): T {
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrapStatement(target.bind(...values));
        const value = Reflect.get(target, prop, target);
        if (typeof prop === "string" && EXECUTORS.has(prop) && typeof value === "function") {
          return (...args: unknown[]) => meter.d1(() => value.apply(target, args));
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    real.set(wrapped, stmt);
    return wrapped;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) =>
          meter.d1(() => target.batch(statements.map((s) => real.get(s) ?? s)));
      }
      if (prop === "exec") return (query: string) => meter.d1(() => (target as D1Database).exec(query));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
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
