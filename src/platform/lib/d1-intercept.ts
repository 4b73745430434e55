// Standing between code and a D1 database (or session): each statement execution and each batch goes through hooks that
// are handed the real statements; every other member is the database's own.
export type AnyD1 = D1Database | D1DatabaseSession;

const EXECUTORS = new Set(["all", "raw", "run", "first"]);

export interface D1Hooks {
  /** Runs the real statement's `method` (all, raw, run or first) with `args`, or what stands in for it. */
  execute(stmt: D1PreparedStatement, method: string, args: unknown[]): Promise<unknown>;
  /** Runs the real statements as one batch, or what stands in for it. */
  batch(statements: D1PreparedStatement[]): Promise<D1Result[]>;
  /** Members of the database that the hooks replace (such as exec). */
  members?: Record<string, unknown>;
}

/** A member of `target` as its own: methods bound to it. */
function own(target: object, prop: string | symbol): unknown {
  const value = Reflect.get(target, prop, target);
  return typeof value === "function" ? value.bind(target) : value;
}

/** The database with its statements (through prepare and bind) and batches handed to the hooks. */
export function interceptD1<T extends AnyD1>(db: T, hooks: D1Hooks): T {
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (typeof prop === "string" && EXECUTORS.has(prop)) {
          return (...args: unknown[]) => hooks.execute(target, prop, args);
        }
        return own(target, prop);
      },
    });
    real.set(wrapped, stmt);
    return wrapped;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => hooks.batch(statements.map((s) => real.get(s) ?? s));
      }
      if (hooks.members && Object.hasOwn(hooks.members, prop)) return hooks.members[prop as string];
      return own(target, prop);
    },
  });
}
