// The local D1 and KV of the command-line tools, tried again while another process holds the state
// (docs/operations.md, "Commands beside a running server"): a call that found a SQLite file locked changed
// nothing (a D1 statement or batch is one transaction; a KV write is whole or not at all) and is made again;
// after a broken workerd connection, only a call that cannot change anything twice is (KV calls, D1 SELECTs).
import { setTimeout as sleep } from "node:timers/promises";

const LOCKED = /database is locked|SQLITE_BUSY|Failed to get session commit token|^KV \w+ failed: 500\b/;
const CONNECTION_BROKEN = /^internal error; reference = |^Network connection lost\.$/;
export const RETRY_FOR_MS = 15_000;
const FIRST_WAIT_MS = 25;
const LONGEST_WAIT_MS = 1_000;

export interface RetryClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const realClock: RetryClock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

/**
 * Calls `call` (whose first try may already be under way: `first`) until it succeeds, fails with an
 * error that is not worth another try, or RETRY_FOR_MS has passed; then the last error is thrown.
 */
export async function whileLocked<R>(
  call: () => Promise<R>,
  options: { idempotent?: boolean; clock?: RetryClock; first?: Promise<R> } = {},
): Promise<R> {
  const { idempotent = false, clock = realClock } = options;
  const giveUpAt = clock.now() + RETRY_FOR_MS;
  let wait = FIRST_WAIT_MS;
  let attempt = options.first ?? call();
  for (;;) {
    try {
      return await attempt;
    } catch (error) {
      const message = error instanceof Error ? error.message : "";
      const worthAnotherTry = LOCKED.test(message) || (idempotent && CONNECTION_BROKEN.test(message));
      if (!worthAnotherTry || clock.now() + wait > giveUpAt) throw error;
    }
    await clock.sleep(wait);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    attempt = call();
  }
}

/** The local env with its D1 database and KV namespaces tried again while locked. */
export function withLockRetries(env: Env, clock: RetryClock = realClock): Env {
  return {
    ...env,
    DB: retryingD1(env.DB, clock),
    KEYS: retryingKv(env.KEYS, clock),
    LOOKUP_CACHE: retryingKv(env.LOOKUP_CACHE, clock),
  };
}

/** Every KV call may be made twice: a read, a put of the same value, a delete. */
export function retryingKv(kv: KVNamespace, clock: RetryClock = realClock): KVNamespace {
  return retrying(kv, () => true, clock);
}

/** A D1 call may be made twice after a broken connection only when each of its statements is a SELECT. */
export function retryingD1(db: D1Database, clock: RetryClock = realClock): D1Database {
  return retrying(
    db,
    (self, property, args) => {
      if (property === "batch") return (args[0] as object[]).every((statement) => isSelect(sqlOf.get(statement)));
      return isSelect(sqlOf.get(self));
    },
    clock,
  );
}

function isSelect(sql: string | undefined): boolean {
  return sql !== undefined && /^\s*select\b/i.test(sql) && !/\breturning\b/i.test(sql);
}

type Idempotent = (self: object, property: string | symbol, args: unknown[]) => boolean;

/** What each wrapper stands for: a batch is given the statements themselves, not their wrappers. */
const wrapped = new WeakMap<object, object>();
/** The SQL of each wrapped D1 statement (from prepare, kept through bind). */
const sqlOf = new WeakMap<object, string>();

/**
 * `target` with every method call that returns a promise tried again while it fails with a
 * locked-state error (or a broken connection, when `idempotent` says the call may be made twice).
 * An object that a method returns at once (a D1 statement from prepare or bind) is wrapped the same way.
 */
function retrying<T extends object>(target: T, idempotent: Idempotent, clock: RetryClock): T {
  const proxy: T = new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const call = () => value.apply(object, args.map(unwrap)) as unknown;
        const result = call();
        if (result instanceof Promise) {
          return whileLocked(call as () => Promise<unknown>, {
            idempotent: idempotent(proxy, property, args),
            clock,
            first: result,
          });
        }
        if (typeof result !== "object" || result === null) return result;
        const statement = retrying(result, idempotent, clock);
        const sql = property === "prepare" ? args[0] : sqlOf.get(proxy);
        if (typeof sql === "string") sqlOf.set(statement, sql);
        return statement;
      };
    },
  });
  wrapped.set(proxy, target);
  return proxy;
}

function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  return (typeof value === "object" && value !== null && wrapped.get(value)) || value;
}
