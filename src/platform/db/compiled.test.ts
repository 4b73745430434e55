// Compiled queries against the real local D1: the rows they map are the rows that drizzle's own
// query builder returns, placeholders bind per call, and a result that cannot be mapped by position
// is refused rather than mis-mapped.
import { env } from "cloudflare:workers";
import { asc, count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { cities, states } from "../../../drizzle/schema.ts";
import type { Database } from "./database.ts";
import { compiled, runBatch } from "./compiled.ts";
import { as } from "./columns.ts";

const db = drizzle(env.DB) as Database;

/** The same columns for the compiled query and for drizzle's own, which the test compares. */
const cityColumns = () => ({
  id: as(cities.id, "ci_id"),
  name: as(cities.name, "ci_name"),
  stateId: cities.stateId,
  stateName: as(states.name, "st_name"),
});

const citiesOfState = compiled((c) => ({
  total: c
    .select({ total: count() })
    .from(cities)
    .where(eq(cities.stateId, sql.placeholder("state")))
    .prepare(),
  rows: c
    .select(cityColumns())
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(eq(cities.stateId, sql.placeholder("state")))
    .orderBy(asc(cities.id))
    .limit(sql.placeholder("count"))
    .prepare(),
}));

// Two columns named "id": D1 returns one key for both.
const collapsing = compiled((c) => ({
  rows: c
    .select({ cityId: cities.id, stateId: states.id })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .prepare(),
}));

// The cities table seen through columns whose drizzle types decode what D1 returns.
const decodedCities = sqliteTable("cities", {
  id: integer("id"),
  name: text("name"),
  // drizzle's boolean mode reads 1 as true and anything else as false: only its decoder turns 2 into false.
  hasState: integer("state_id", { mode: "boolean" }),
});
const decoding = compiled((c) => ({
  rows: c.select().from(decodedCities).orderBy(asc(decodedCities.id)).prepare(),
}));

beforeAll(async () => {
  await db.batch([
    db.insert(states).values([
      { id: 1, code: "MH", name: "Maharashtra" },
      { id: 2, code: "KA", name: "Karnataka" },
    ]),
    db.insert(cities).values([
      { id: 10, name: "Mumbai", code: "MUM", stateId: 1 },
      { id: 11, name: "Pune", code: "PUN", stateId: 1 },
      { id: 12, name: "Bengaluru", code: "BLR", stateId: 2 },
    ]),
  ]);
});

describe("compiled queries", () => {
  it("map rows exactly as drizzle's query builder does, with each call's values", async () => {
    for (const [state, limit] of [
      [1, 10],
      [1, 1],
      [2, 10],
      [3, 10],
    ] as const) {
      const q = citiesOfState();
      const [total, rows] = await runBatch(db, [q.total.bind({ state }), q.rows.bind({ state, count: limit })]);
      const [expectedTotal, expectedRows] = await db.batch([
        db.select({ total: count() }).from(cities).where(eq(cities.stateId, state)),
        db
          .select(cityColumns())
          .from(cities)
          .innerJoin(states, eq(states.id, cities.stateId))
          .where(eq(cities.stateId, state))
          .orderBy(asc(cities.id))
          .limit(limit),
      ]);
      expect({ total, rows }).toEqual({ total: expectedTotal, rows: expectedRows });
    }
    const q = citiesOfState();
    const [total, rows] = await runBatch(db, [q.total.bind({ state: 1 }), q.rows.bind({ state: 1, count: 10 })]);
    expect(total).toEqual([{ total: 2 }]);
    expect(rows).toEqual([
      { id: 10, name: "Mumbai", stateId: 1, stateName: "Maharashtra" },
      { id: 11, name: "Pune", stateId: 1, stateName: "Maharashtra" },
    ]);
  });

  it("decode values as the columns' drizzle types do", async () => {
    const [rows] = await runBatch(db, [decoding().rows.bind()]);
    const expected = await db.select().from(decodedCities).orderBy(asc(decodedCities.id));
    expect(rows).toEqual(expected);
    expect(rows).toEqual([
      { id: 10, name: "Mumbai", hasState: true },
      { id: 11, name: "Pune", hasState: true },
      { id: 12, name: "Bengaluru", hasState: false },
    ]);
  });

  it("refuses rows whose columns collapsed into fewer keys than the query selects", async () => {
    await expect(runBatch(db, [collapsing().rows.bind()])).rejects.toThrow("a row has 1 columns, the query selects 2");
  });

  it("runs a batch as one D1 batch call", async () => {
    let batches = 0;
    const counting = drizzle(
      new Proxy(env.DB, {
        get: (target, prop) =>
          prop === "batch"
            ? (statements: D1PreparedStatement[]) => (batches++, target.batch(statements))
            : (Reflect.get(target, prop, target) as (...a: unknown[]) => unknown).bind(target),
      }),
    ) as Database;
    const q = citiesOfState();
    await runBatch(counting, [q.total.bind({ state: 1 }), q.rows.bind({ state: 1, count: 10 })]);
    expect(batches).toBe(1);
  });
});
