// The command-line tools' local D1 and KV while another process holds the state (scripts/lib/local-retry.ts):
// real local bindings from getPlatformProxy, with the failures that a locked SQLite file or a broken
// workerd connection causes injected in front of them. The waits are counted on a clock of the test's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dropSecrets, writeConfigCopy } from "../scripts/lib/config.ts";
import { RETRY_FOR_MS, retryingD1, retryingKv, type RetryClock } from "../scripts/lib/local-retry.ts";

const COMMIT_TOKEN =
  "D1_ERROR: Failed to get session commit token: internal error; reference = 1p7q75fm9tmms078931faoit";
const BUSY = "D1_ERROR: database is locked: SQLITE_BUSY";
const BROKEN = "internal error; reference = a0nc4oj6jffnplofpk6anie5";

const dir = mkdtempSync(join(tmpdir(), "olk-local-retry-"));
let platform: Awaited<ReturnType<typeof getPlatformProxy<Env>>>;

/** A clock whose sleeps only move its time on, keeping each wait. */
function testClock(): RetryClock & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return { waits, now: () => now, sleep: async (ms) => void ((now += ms), waits.push(ms)) };
}

/** `target` whose `method` fails with each of `messages` in turn (without reaching it), then works. */
function failing<T extends object>(target: T, method: string, messages: string[]): { binding: T; calls: () => number } {
  let calls = 0;
  const left = [...messages];
  const binding = new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property !== method) return value.apply(object, args);
        calls++;
        const message = left.shift();
        return message === undefined ? value.apply(object, args) : Promise.reject(new Error(message));
      };
    },
  });
  return { binding, calls: () => calls };
}

async function names(): Promise<string[]> {
  const { results } = await platform.env.DB.prepare("SELECT name FROM shops ORDER BY name").all<{ name: string }>();
  return results.map((r) => r.name);
}

beforeAll(async () => {
  platform = await getPlatformProxy<Env>({
    // As the tools open it: without [secrets], so wrangler reads and logs none.
    configPath: writeConfigCopy(join(dir, "wrangler.json"), dropSecrets),
    persist: { path: join(dir, "v3") },
    remoteBindings: false,
  });
  await platform.env.DB.exec("CREATE TABLE shops (name TEXT PRIMARY KEY)");
}, 60_000);

beforeEach(async () => {
  await platform.env.DB.exec("DELETE FROM shops");
});

afterAll(async () => {
  await platform?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("local D1 while another process holds the state", () => {
  it("makes a batch that found the state locked again, and writes its rows once", async () => {
    const clock = testClock();
    const { binding, calls } = failing(platform.env.DB, "batch", [COMMIT_TOKEN, BUSY]);
    const db = retryingD1(binding, clock);
    const insert = db.prepare("INSERT INTO shops (name) VALUES (?)");
    const results = await db.batch([insert.bind("Asha Stores"), insert.bind("Ravi Traders")]);
    expect(results.map((r) => [r.success, r.meta.changes])).toEqual([
      [true, 1],
      [true, 1],
    ]);
    expect({ calls: calls(), waits: clock.waits }).toEqual({ calls: 3, waits: [25, 50] });
    expect(await names()).toEqual(["Asha Stores", "Ravi Traders"]);
  });

  it("does not make a write again after a broken connection: whether it got through is unknown", async () => {
    const clock = testClock();
    const { binding, calls } = failing(platform.env.DB, "batch", [BROKEN]);
    const db = retryingD1(binding, clock);
    await expect(db.batch([db.prepare("INSERT INTO shops (name) VALUES (?)").bind("Asha Stores")])).rejects.toThrow(
      BROKEN,
    );
    expect({ calls: calls(), waits: clock.waits }).toEqual({ calls: 1, waits: [] });
  });

  it("makes a batch of SELECTs again after a broken connection", async () => {
    await platform.env.DB.prepare("INSERT INTO shops (name) VALUES ('Asha Stores')").run();
    const clock = testClock();
    const { binding, calls } = failing(platform.env.DB, "batch", [BROKEN]);
    const db = retryingD1(binding, clock);
    const [result] = await db.batch([db.prepare("SELECT name FROM shops WHERE name = ?").bind("Asha Stores")]);
    expect(result!.results).toEqual([{ name: "Asha Stores" }]);
    expect({ calls: calls(), waits: clock.waits }).toEqual({ calls: 2, waits: [25] });
  });

  it("reports any other failure at once", async () => {
    const clock = testClock();
    const db = retryingD1(platform.env.DB, clock);
    await expect(db.prepare("SELECT * FROM no_such_table").all()).rejects.toThrow(/no such table: no_such_table/);
    expect(clock.waits).toEqual([]);
  });

  it("passes a statement's own calls through: run, first, all and raw", async () => {
    const db = retryingD1(platform.env.DB, testClock());
    const run = await db.prepare("INSERT INTO shops (name) VALUES (?)").bind("Asha Stores").run();
    expect([run.success, run.meta.changes]).toEqual([true, 1]);
    const select = db.prepare("SELECT name FROM shops WHERE name = ?").bind("Asha Stores");
    expect(await select.first()).toEqual({ name: "Asha Stores" });
    expect(await select.first("name")).toBe("Asha Stores");
    expect((await select.all()).results).toEqual([{ name: "Asha Stores" }]);
    expect(await select.raw()).toEqual([["Asha Stores"]]);
  });

  it("gives up after RETRY_FOR_MS with the last error", async () => {
    const clock = testClock();
    const { binding, calls } = failing(platform.env.DB, "batch", Array(100).fill(BUSY));
    const db = retryingD1(binding, clock);
    await expect(db.batch([db.prepare("INSERT INTO shops (name) VALUES ('x')")])).rejects.toThrow(BUSY);
    const waited = clock.waits.reduce((a, b) => a + b, 0);
    expect(clock.waits.slice(0, 7)).toEqual([25, 50, 100, 200, 400, 800, 1000]);
    expect(waited).toBeLessThanOrEqual(RETRY_FOR_MS);
    expect(waited).toBeGreaterThan(RETRY_FOR_MS - 1000);
    expect(calls()).toBe(clock.waits.length + 1);
    expect(await names()).toEqual([]);
  });
});

describe("a statement's own call after a broken connection", () => {
  /** A D1 whose statements' `all` fails once with a broken connection, then answers. */
  function brokenOnce() {
    let calls = 0;
    const statement = (sql: string) => ({
      bind: () => statement(sql),
      all: async () => {
        if (calls++ === 0) throw new Error(BROKEN);
        return { results: [{ sql }], success: true, meta: {} };
      },
    });
    return { db: { prepare: statement } as unknown as D1Database, calls: () => calls };
  }

  it("is made again for a SELECT", async () => {
    const { db, calls } = brokenOnce();
    const result = await retryingD1(db, testClock()).prepare("SELECT 1").bind().all();
    expect({ results: result.results, calls: calls() }).toEqual({ results: [{ sql: "SELECT 1" }], calls: 2 });
  });

  it("is not made again for a write, even one that returns rows", async () => {
    const { db, calls } = brokenOnce();
    await expect(
      retryingD1(db, testClock()).prepare("INSERT INTO shops (name) VALUES (?) RETURNING name").bind("x").all(),
    ).rejects.toThrow(BROKEN);
    expect(calls()).toBe(1);
  });
});

describe("local KV while another process holds the state", () => {
  it("makes every call again, reads and writes alike: a put of the same value twice is one put", async () => {
    const clock = testClock();
    const { binding, calls } = failing(platform.env.KEYS, "put", [
      "Network connection lost.",
      "KV PUT failed: 500 Internal Server Error",
    ]);
    const kv = retryingKv(binding, clock);
    await kv.put("hash:abc", "{}");
    expect({ calls: calls(), waits: clock.waits }).toEqual({ calls: 3, waits: [25, 50] });
    const reads = failing(platform.env.KEYS, "get", ["KV GET failed: 500 Internal Server Error"]);
    expect(await retryingKv(reads.binding, clock).get("hash:abc")).toBe("{}");
    expect(reads.calls()).toBe(2);
  });
});
