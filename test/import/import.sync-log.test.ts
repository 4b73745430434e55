// The importer's part of the sync change log (docs/specification.md section 8, "The change log"):
// which lookups a file changes is worked out once, before the final batch, and that batch alone
// writes the change and its marks.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type Dataset, importDataset } from "../../src/import/importer.ts";
import { books, emptyBooks, log } from "../sync/sync.log.helpers.ts";
import { snapshot, stagingTables } from "./import.helpers.ts";

beforeEach(emptyBooks);

/** books() with its first city (Mumbai, shown by customers 1 and 5 and their orders) renamed. */
function renamed(): Dataset {
  const data = books();
  data.cities![0]!.name = "Bombay";
  return data;
}

/** The real database, with the SQL of every statement that the importer prepares kept in `sql`. */
function recording(): { db: D1Database; sql: string[] } {
  const sql: string[] = [];
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") {
        return (query: string) => {
          sql.push(query);
          return target.prepare(query);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, sql };
}

/** The real database, whose batch holding the sync log's floor (the import's final batch) fails. */
function failingFinalBatch(): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          const final = statements.some((s) => /sync_import_floor/.test((s as { statement?: string }).statement ?? ""));
          // An integer overflow: the batch is rolled back as a whole, as D1 does with any failed statement.
          return target.batch(
            final ? [...statements, target.prepare("SELECT abs(-9223372036854775807 - 1)")] : statements,
          );
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

// Each lookup table is compared with its staged copy in one statement that names both.
const comparisons = (sql: string[]) => sql.filter((q) => /import_cities AS s JOIN cities AS t/.test(q)).length;

describe("the changed lookups", () => {
  it("are compared with the stored ones once, whether the file changes one or not", async () => {
    await importDataset(env.DB, books());
    const unchanged = recording();
    expect((await importDataset(unchanged.db, books())).rowsWritten).toBe(0);
    const changed = recording();
    await importDataset(changed.db, renamed());
    expect({ unchanged: comparisons(unchanged.sql), changed: comparisons(changed.sql) }).toEqual({
      unchanged: 1,
      changed: 1,
    });
    expect(await stagingTables()).toEqual([]);
  });

  it("are neither renamed nor marked when the final batch fails, and leave no table behind", async () => {
    await importDataset(env.DB, books());
    const before = { tables: await snapshot(), log: await log() };
    await expect(importDataset(failingFinalBatch(), renamed())).rejects.toThrow(/overflow/);
    expect({ tables: await snapshot(), log: await log() }).toEqual(before);
    expect(await stagingTables()).toEqual([]);
  });
});
