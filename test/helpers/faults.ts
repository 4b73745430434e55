// Fault injection: the worker's own app called with bindings wrapped so that they fail the way a
// real outage does (the binding call rejects). Nothing else about D1 or KV is imitated: every
// call that is not made to fail goes to the real local binding.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import app from "../../src/index.ts";
import { BASE, type CallOptions, type CallResult } from "./http.ts";

/** Text a driver error might carry: none of it may reach a response. */
export const LEAK_MARKERS = ["D1_ERROR", "SELECT", "customers_fault_probe", "KV GET failed", "LOOKUP_CACHE", "KEYS", "Network connection", "DB.prepare"];

/** Throws when a response text carries any of the injected fault's text or a stack frame. */
export function expectNoLeak(text: string): void {
  for (const marker of LEAK_MARKERS) {
    if (text.includes(marker)) throw new Error(`response leaks ${JSON.stringify(marker)}: ${text}`);
  }
  if (/\n\s+at\s/.test(text) || /\.ts:\d+/.test(text)) throw new Error(`response carries a stack trace: ${text}`);
}

export const D1_FAULT = "D1_ERROR: Network connection lost. (SELECT * FROM customers_fault_probe) at DB.prepare";
export const KV_FAULT = "KV GET failed: 503 Service Unavailable (LOOKUP_CACHE / KEYS) at kv.get";

/** One request into the worker with some bindings or vars replaced; parsed like call(). */
export async function callWithEnv<T = any>(
  overrides: Partial<Cloudflare.Env>,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("Authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const url = path.startsWith("http") ? path : `${BASE}${path}`;
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(url, { method: options.method ?? "GET", headers, body }), { ...env, ...overrides }, ctx);
  // Background work (cache fills) must finish, and must not throw either.
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text && (res.headers.get("Content-Type") ?? "").includes("json")) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

const rejectWith = (message: string) => () => Promise.reject(new Error(message));

/** A KV namespace that cannot be reached: every operation rejects. */
export function downKV(): KVNamespace {
  const fail = rejectWith(KV_FAULT);
  return { get: fail, getWithMetadata: fail, put: fail, delete: fail, list: fail } as unknown as KVNamespace;
}

const EXECUTORS = new Set(["all", "raw", "run", "first"]);

/** A statement that prepares fine and fails when executed, as D1 does when it cannot be reached. */
function downStatement(stmt: D1PreparedStatement): D1PreparedStatement {
  return new Proxy(stmt, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => downStatement(target.bind(...values));
      if (typeof prop === "string" && EXECUTORS.has(prop)) return rejectWith(D1_FAULT);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A D1 database (and its sessions) that cannot be reached: every execution and batch rejects. */
export function downD1(real: D1Database = env.DB): D1Database {
  const wrap = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "prepare") return (query: string) => downStatement(target.prepare(query));
        if (prop === "batch" || prop === "exec" || prop === "dump") return rejectWith(D1_FAULT);
        if (prop === "withSession") return (constraint?: string) => wrap((target as D1Database).withSession(constraint));
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return wrap(real);
}

/**
 * A D1 database whose batches fail part-way: the real statements run inside the real batch, then a
 * statement that fails at run time (integer overflow) makes D1 roll the whole batch back.
 */
export function failingBatchD1(real: D1Database = env.DB): D1Database & { batchesFailed: number } {
  const state = { batchesFailed: 0 };
  const wrap = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            state.batchesFailed++;
            return target.batch([...statements, target.prepare("SELECT abs(-9223372036854775807 - 1)")]);
          };
        }
        if (prop === "withSession") return (constraint?: string) => wrap((target as D1Database).withSession(constraint));
        if (prop === "batchesFailed") return state.batchesFailed;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return wrap(real) as D1Database & { batchesFailed: number };
}

/** A rate limiter that cannot be reached. */
export function downRateLimiter(): RateLimit {
  return { limit: rejectWith("rate limiter unreachable") } as unknown as RateLimit;
}
