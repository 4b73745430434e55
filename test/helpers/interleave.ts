// Runs two writers against the real local D1 and KV with every interleaving of their steps, where a
// step is one binding call that matters to the writer: a D1 execution or batch whose SQL touches the
// key records (first, run, all, raw, batch), or a KV put. Each writer gets its own proxies of the
// bindings (handed to the worker through callWithEnv); each such call waits at a gate until the
// scheduler lets it through, one at a time, so a run is one interleaving and can be replayed.
// Every other call (KV reads, the sign-in throttle's D1 work) goes straight through.
import { env } from "cloudflare:workers";
import { interceptD1 } from "../../src/platform/lib/d1-intercept.ts";

/** The SQL of a real prepared statement (workerd keeps it on the object). */
function sqlOf(stmt: D1PreparedStatement): string {
  const sql = (stmt as { statement?: unknown }).statement;
  if (typeof sql !== "string") throw new Error("this runtime does not expose a statement's SQL");
  return sql;
}

/** Where each writer is: waiting at a gate (with what it is about to do), running, or finished. */
class Gates {
  private readonly waiting = new Map<number, { label: string; go: () => void }>();
  private readonly finished = new Set<number>();
  private wake: (() => void) | null = null;

  async pass(side: number, label: string): Promise<void> {
    if (this.waiting.has(side))
      throw new Error(`writer ${side} made two gated calls at once: its steps have no single order`);
    await new Promise<void>((go) => {
      this.waiting.set(side, { label, go });
      this.notify();
    });
  }

  finish(side: number): void {
    this.finished.add(side);
    this.notify();
  }

  /** Resolves once every writer is waiting at a gate or finished; the writers waiting, by side. */
  async settled(sides: number): Promise<number[]> {
    const ready = () =>
      Array.from({ length: sides }, (_, i) => i).every((i) => this.waiting.has(i) || this.finished.has(i));
    while (!ready()) await new Promise<void>((wake) => (this.wake = wake));
    return [...this.waiting.keys()].sort();
  }

  /** Lets one writer's waiting call through; its label. */
  release(side: number): string {
    const gate = this.waiting.get(side)!;
    this.waiting.delete(side);
    gate.go();
    return gate.label;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/** What one writer's gated calls match: SQL that touches the key records, and KV puts. */
const KEY_SQL = /\b(api_keys|key_audit)\b/;

function gatedD1(real: D1Database, gate: (label: string) => Promise<void>): D1Database {
  return interceptD1(real, {
    async execute(stmt, method, args) {
      const sql = sqlOf(stmt);
      if (KEY_SQL.test(sql)) await gate(`${method} ${sql.slice(0, 40)}`);
      return (stmt[method as keyof D1PreparedStatement] as (...a: unknown[]) => unknown).apply(stmt, args);
    },
    async batch(statements) {
      if (statements.some((s) => KEY_SQL.test(sqlOf(s)))) await gate(`batch of ${statements.length}`);
      return real.batch(statements);
    },
  });
}

function gatedKV(real: KVNamespace, gate: (label: string) => Promise<void>): KVNamespace {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "put") {
        return async (...args: Parameters<KVNamespace["put"]>) => {
          await gate(`put ${String(args[0]).slice(0, 12)}`);
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** One writer: its name (for the trace), and what it does with the bindings it is given. */
export interface Writer<T> {
  name: string;
  run: (bindings: { DB: D1Database; KEYS: KVNamespace }) => Promise<T>;
}

/** One interleaving: the writers' results, and the steps in the order they ran ("name: step"). */
export interface Interleaving<T> {
  results: T[];
  steps: string[];
}

/**
 * Runs the writers with the interleaving that `choices` picks: at the k-th point where more than one
 * writer waits, the writer `choices[k]` among those waiting goes first (the first when `choices` has
 * no k-th entry). Returns the results, the steps, and the choice taken at each such point, with
 * how many writers were waiting there.
 */
async function runOnce<T>(writers: Writer<T>[], choices: number[]) {
  const gates = new Gates();
  const runs = writers.map((w, side) =>
    w
      .run({
        DB: gatedD1(env.DB, (label) => gates.pass(side, label)),
        KEYS: gatedKV(env.KEYS, (label) => gates.pass(side, label)),
      })
      .finally(() => gates.finish(side)),
  );
  // A writer that fails still finishes; its failure is reported after the schedule ran out.
  const settledRuns = Promise.allSettled(runs);
  const steps: string[] = [];
  const taken: { choice: number; of: number }[] = [];
  for (;;) {
    const waiting = await gates.settled(writers.length);
    if (waiting.length === 0) break;
    let side = waiting[0]!;
    if (waiting.length > 1) {
      const choice = choices[taken.length] ?? 0;
      taken.push({ choice, of: waiting.length });
      side = waiting[choice]!;
    }
    steps.push(`${writers[side]!.name}: ${gates.release(side)}`);
  }
  const outcomes = await settledRuns;
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failed) throw new Error(`a writer failed after the steps ${JSON.stringify(steps)}`, { cause: failed.reason });
  return { results: outcomes.map((o) => (o as PromiseFulfilledResult<T>).value), steps, taken };
}

/**
 * Every interleaving of the writers' steps, each run from the state that `setup` makes, then
 * checked by `check` (which throws to fail). The order of steps within one writer is its own
 * (including steps that only some interleavings make, such as a write made again); every order
 * between them is tried once. Returns how many interleavings ran.
 */
export async function forEveryInterleaving<S, T>(
  setup: () => Promise<S>,
  writers: (state: S) => Writer<T>[],
  check: (state: S, run: Interleaving<T>) => Promise<void>,
): Promise<number> {
  const pending: number[][] = [[]];
  let count = 0;
  while (pending.length > 0) {
    const prefix = pending.pop()!;
    const state = await setup();
    const { results, steps, taken } = await runOnce(writers(state), prefix);
    count++;
    try {
      await check(state, { results, steps });
    } catch (err) {
      throw new Error(`interleaving ${JSON.stringify(steps)}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
    // Every other choice at each point past the prefix is an interleaving of its own.
    for (let k = prefix.length; k < taken.length; k++) {
      for (let other = taken[k]!.choice + 1; other < taken[k]!.of; other++) {
        pending.push([...taken.slice(0, k).map((t) => t.choice), other]);
      }
    }
  }
  return count;
}
