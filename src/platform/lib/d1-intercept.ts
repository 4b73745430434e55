// A D1 database or session whose executions and batches go through hooks, given the real statements and their making.
export type AnyD1 = D1Database | D1DatabaseSession;

const EXECUTORS = new Set(["all", "raw", "run", "first"]);

/** A statement's SQL and bound values: enough to prepare it again elsewhere (in another session). */
export interface Made {
  sql: string;
  params: unknown[];
}

export interface D1Hooks {
  /** Runs the real statement's `method` (all, raw, run or first) with `args`, or what stands in for it. */
  execute(stmt: D1PreparedStatement, method: string, args: unknown[], made: Made): Promise<unknown>;
  /** Runs the real statements as one batch, or what stands in for it; `made` is undefined for a foreign statement. */
  batch(statements: D1PreparedStatement[], made: (Made | undefined)[]): Promise<D1Result[]>;
  /** Members of the database that the hooks replace (such as exec). */
  members?: Record<string, unknown>;
}

function own(target: object, prop: string | symbol): unknown {
  const value = Reflect.get(target, prop, target);
  return typeof value === "function" ? value.bind(target) : value;
}

/** The database with its statements (through prepare and bind) and batches handed to the hooks. */
export function interceptD1<T extends AnyD1>(db: T, hooks: D1Hooks): T {
  const real = new WeakMap<object, { stmt: D1PreparedStatement; made: Made }>();
  const wrap = (stmt: D1PreparedStatement, made: Made): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...params: unknown[]) => wrap(target.bind(...params), { sql: made.sql, params });
        if (typeof prop === "string" && EXECUTORS.has(prop)) {
          return (...args: unknown[]) => hooks.execute(target, prop, args, made);
        }
        return own(target, prop);
      },
    });
    real.set(wrapped, { stmt, made });
    return wrapped;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), { sql, params: [] });
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          const found = statements.map((s) => real.get(s));
          return hooks.batch(
            statements.map((s, i) => found[i]?.stmt ?? s),
            found.map((f) => f?.made),
          );
        };
      }
      if (hooks.members && Object.hasOwn(hooks.members, prop)) return hooks.members[prop as string];
      return own(target, prop);
    },
  });
}
