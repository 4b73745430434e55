// Fault injection: the worker's own app called with bindings wrapped so that they fail the way a
// real outage does (the binding call rejects). Nothing else about D1 or KV is imitated: every
// call that is not made to fail goes to the real local binding.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import app from "../../src/index.ts";
import { type AnyD1, interceptD1 } from "../../src/platform/lib/d1-intercept.ts";
import { type CallOptions, type CallResult, callVia } from "./http.ts";

/** Text a driver error might carry: none of it may reach a response. */
export const LEAK_MARKERS = [
  "D1_ERROR",
  "SELECT",
  "customers_fault_probe",
  "KV GET failed",
  "KV PUT failed",
  "LOOKUP_CACHE",
  "KEYS",
  "Network connection",
  "DB.prepare",
];

/** Throws when a response text carries any of the injected fault's text or a stack frame. */
export function expectNoLeak(text: string): void {
  for (const marker of LEAK_MARKERS) {
    if (text.includes(marker)) throw new Error(`response leaks ${JSON.stringify(marker)}: ${text}`);
  }
  if (/\n\s+at\s/.test(text) || /\.ts:\d+/.test(text)) throw new Error(`response carries a stack trace: ${text}`);
}

export const D1_FAULT = "D1_ERROR: Network connection lost. (SELECT * FROM customers_fault_probe) at DB.prepare";
export const KV_FAULT = "KV GET failed: 503 Service Unavailable (LOOKUP_CACHE / KEYS) at kv.get";

/**
 * One request into the worker's app with some bindings or vars replaced, through callVia(): the
 * same request building, parsing and contract check as call(). Also the fast way to send many
 * requests with the real bindings (overrides {}).
 */
export function callWithEnv<T = any>(
  overrides: Partial<Cloudflare.Env>,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  return callVia<T>(
    async (request) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(request, { ...env, ...overrides }, ctx);
      // Background work (cache fills) must settle too, and must not throw either.
      await waitOnExecutionContext(ctx);
      return res;
    },
    path,
    options,
  );
}

const rejectWith = (message: string) => () => Promise.reject(new Error(message));

/** A KV namespace that cannot be reached: every operation rejects. */
export function downKV(): KVNamespace {
  const fail = rejectWith(KV_FAULT);
  return { get: fail, getWithMetadata: fail, put: fail, delete: fail, list: fail } as unknown as KVNamespace;
}

export const KV_PUT_FAULT = "KV PUT failed: 503 Service Unavailable (KEYS) at kv.put";

/**
 * A KV namespace whose writes fail while `failing` is true (reads, lists and deletes go to the real
 * one): a write refused after the D1 batch committed. `refused` counts the writes refused.
 */
export function failingPutKV(
  real: KVNamespace = env.KEYS,
): KVNamespace & { failing: boolean; readonly refused: number } {
  const state = { failing: true, refused: 0 };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "failing") return state.failing;
      if (prop === "refused") return state.refused;
      if (prop === "put" && state.failing) {
        return () => {
          state.refused++;
          return Promise.reject(new Error(KV_PUT_FAULT));
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(_target, prop, value) {
      if (prop !== "failing") return false;
      state.failing = Boolean(value);
      return true;
    },
  }) as KVNamespace & { failing: boolean; readonly refused: number };
}

/** The real binding with some members replaced; every other member is the real one's (its methods bound to it). */
export function withMembers<T extends object>(real: T, members: { [K in keyof T]?: unknown }): T {
  return new Proxy(real, {
    get(target, prop) {
      if (Object.hasOwn(members, prop)) return members[prop as keyof T];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A D1 database or session whose every execution and batch rejects with `fault` (its statements prepare fine, as
 * D1's do when it cannot be reached); `members` replaces others. */
function failingD1<T extends AnyD1>(db: T, fault: string, members: Record<string, unknown> = {}): T {
  const fail = rejectWith(fault);
  return interceptD1(db, { execute: fail, batch: fail, members });
}

/** A D1 database (and its sessions) that cannot be reached: every execution and batch rejects. */
export function downD1(real: D1Database = env.DB): D1Database {
  const wrap = <T extends AnyD1>(db: T): T =>
    failingD1(db, D1_FAULT, {
      exec: rejectWith(D1_FAULT),
      dump: rejectWith(D1_FAULT),
      withSession: (constraint?: string) => wrap((db as D1Database).withSession(constraint)),
    });
  return wrap(real);
}

/** The SQL of a real prepared statement (workerd keeps it on the object). */
function sqlOf(stmt: D1PreparedStatement): string {
  const sql = (stmt as { statement?: unknown }).statement;
  if (typeof sql !== "string")
    throw new Error(
      "this runtime does not expose a statement's SQL: failingWriteBatchD1 cannot tell writes from reads",
    );
  return sql;
}

/**
 * A D1 database whose batches that write fail part-way: the real statements run inside the real
 * batch, then one that fails at run time (integer overflow) makes D1 roll the whole batch back.
 * Batches that only read go through untouched.
 */
export function failingWriteBatchD1(real: D1Database = env.DB): D1Database & { readonly writeBatchesFailed: number } {
  const state = { writeBatchesFailed: 0 };
  const wrap = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "batch") {
          return (statements: D1PreparedStatement[]) => {
            if (!statements.some((s) => /^\s*(insert|update|delete)\b/i.test(sqlOf(s))))
              return target.batch(statements);
            state.writeBatchesFailed++;
            return target.batch([...statements, target.prepare("SELECT abs(-9223372036854775807 - 1)")]);
          };
        }
        if (prop === "withSession")
          return (constraint?: string) => wrap((target as D1Database).withSession(constraint));
        if (prop === "writeBatchesFailed") return state.writeBatchesFailed;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return wrap(real) as D1Database & { readonly writeBatchesFailed: number };
}

/**
 * A D1 database that runs `hook` (another client's write) just before the first batch holding a
 * statement whose SQL matches `marker`: a concurrent write landing at the worst moment.
 */
export function writeBeforeBatchD1(
  marker: RegExp,
  hook: () => Promise<unknown>,
  real: D1Database = env.DB,
): D1Database {
  let done = false;
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (!done && statements.some((s) => marker.test(sqlOf(s)))) {
            done = true;
            await hook();
          }
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A D1 database that answers every query with something no driver returns (a number). */
export function garbageD1(): D1Database {
  const statement: Record<string, unknown> = {};
  const answer = async () => 42;
  Object.assign(statement, { bind: () => statement, all: answer, raw: answer, run: answer, first: answer });
  const session = { prepare: () => statement, batch: answer, getBookmark: () => null };
  return { ...session, withSession: () => session, exec: answer, dump: answer } as unknown as D1Database;
}

/** A rate limiter that cannot be reached. */
export function downRateLimiter(): RateLimit {
  return { limit: rejectWith("rate limiter unreachable") } as unknown as RateLimit;
}

/** A refusal of a bookmark, as D1 words it for one it never issued. */
export const BOOKMARK_FAULT = "D1_ERROR: Invalid bookmark: not a bookmark of this database";

/**
 * The real D1, recording every constraint that withSession() is given, and refusing every
 * bookmark (any constraint but first-primary / first-unconstrained): at "open", withSession()
 * throws; at "query", the session opens and each of its executions and batches rejects.
 */
export function refusingBookmarksD1(
  when: "open" | "query" | "never",
  real: D1Database = env.DB,
): D1Database & { readonly constraints: string[] } {
  const constraints: string[] = [];
  const refused = <T extends D1DatabaseSession>(session: T): T => failingD1(session, BOOKMARK_FAULT);
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "withSession") {
        return (constraint?: string) => {
          constraints.push(String(constraint));
          const session = target.withSession(constraint);
          if (when === "never" || constraint === "first-primary" || constraint === "first-unconstrained")
            return session;
          if (when === "open") throw new Error(BOOKMARK_FAULT);
          return refused(session);
        };
      }
      if (prop === "constraints") return constraints;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as D1Database & { readonly constraints: string[] };
}
