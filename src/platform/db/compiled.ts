// Read queries whose SQL is built once per isolate (with placeholders) instead of per request: building it was the
// worker's largest CPU share on the pages; once, the orders page went from 177 to 270 req/s.
import { Column, fillPlaceholders, is, noopDecoder, type Placeholder, SQL, sql, type SQLWrapper } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { PreparedQueryConfig, SQLitePreparedQuery } from "drizzle-orm/sqlite-core";
import type { Page } from "../paging/pagination.ts";
import type { Database } from "./database.ts";
import { limitWithinTotal, rowLimit } from "./sql.queries.ts";

/** A database that only compiles: prepare() hands back nothing, and nothing ever executes. */
const compiler = drizzle({ prepare: () => ({}) } as unknown as D1Database);
export type Compiler = typeof compiler;

type Prepared = SQLitePreparedQuery<PreparedQueryConfig & { type: "async" }>;
type RowsOf<P> = P extends SQLitePreparedQuery<infer C> ? C["all"] : never;
type Values = Record<string, unknown>;

export interface Bound<Rows> {
  readonly sql: string;
  readonly params: unknown[];
  readonly map: (result: D1Result) => Rows;
}

export class CompiledQuery<Rows> {
  readonly #sql: string;
  readonly #params: unknown[];
  readonly #map: (result: D1Result) => Rows;

  constructor(prepared: Prepared) {
    const { sql, params } = prepared.getQuery();
    this.#sql = sql;
    this.#params = params;
    const mapRows = flatRowMapper(prepared);
    this.#map = mapRows
      ? (result) => mapRows(result.results as Record<string, unknown>[]) as Rows
      : (result) => prepared.mapResult(result, true) as Rows;
  }

  bind(values: Values = {}): Bound<Rows> {
    return { sql: this.#sql, params: fillPlaceholders(this.#params, values), map: this.#map };
  }
}

type Decode = (value: unknown) => unknown;

// Decoders worked out once per query: drizzle works them out again for every value, which costs more than the rest of a
// page's shaping. Relies on drizzle's internal `fields`; without them drizzle maps the rows.
function flatRowMapper(prepared: Prepared): ((rows: Record<string, unknown>[]) => unknown[]) | null {
  const fields = (prepared as unknown as { fields?: { path: string[]; field: unknown }[] }).fields;
  if (!Array.isArray(fields) || fields.some((f) => f.path.length !== 1)) return null;
  const keys = fields.map((f) => f.path[0]!);
  const decoders = fields.map((f) => decoderOf(f.field));
  return (rows) =>
    rows.map((row) => {
      const values = Object.values(row);
      // Two result columns of one name collapse into one key: a query bug that must not pass silently.
      if (values.length !== keys.length)
        throw new Error(`a row has ${values.length} columns, the query selects ${keys.length}`);
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = values[i];
        const decode = decoders[i];
        out[keys[i]!] = value === null ? null : decode ? decode(value) : value;
      }
      return out;
    });
}

/** The decoder drizzle would apply to a field's values; null when it leaves them as they are. */
function decoderOf(field: unknown): Decode | null {
  if (is(field, Column)) {
    // Plain integer, real and text columns keep Column's own identity mapping: nothing to call.
    if (field.mapFromDriverValue === Column.prototype.mapFromDriverValue) return null;
    return (value) => field.mapFromDriverValue(value);
  }
  const sql = (is(field, SQL) ? field : is(field, SQL.Aliased) ? field.sql : null) as {
    decoder?: typeof noopDecoder;
  } | null;
  const decoder = sql?.decoder;
  if (!decoder || decoder === noopDecoder) return null;
  return (value) => decoder.mapFromDriverValue(value);
}

// Queries built together, compiled at first use in the isolate, so cold starts pay only for those used.
export function compiled<S extends Record<string, Prepared>>(
  build: (db: Compiler) => S,
): () => { [K in keyof S]: CompiledQuery<RowsOf<S[K]>> } {
  let queries: { [K in keyof S]: CompiledQuery<RowsOf<S[K]>> } | undefined;
  return () =>
    (queries ??= Object.fromEntries(
      Object.entries(build(compiler)).map(([name, prepared]) => [name, new CompiledQuery(prepared)]),
    ) as { [K in keyof S]: CompiledQuery<RowsOf<S[K]>> });
}

/** Named as Page's fields, so that pageValues binds them. */
export const PAGE = {
  limit: rowLimit(sql.placeholder("count" satisfies keyof Page)),
  offset: sql.placeholder("skip" satisfies keyof Page),
};

/** LIMIT 0 once the offset reaches the kept total (sql.queries.ts). */
export function limitWithin(kept: SQLWrapper, limit: Placeholder | number): Placeholder {
  return limitWithinTotal(PAGE.offset, kept, limit);
}

/** Ids as one JSON array parameter for json_each: D1 binds at most 100, and one per id makes each length new SQL. */
export const idsValue = (ids: Iterable<number>): string => JSON.stringify([...ids]);

export const AFTER = {
  id: sql.placeholder("afterId"),
  date: sql.placeholder("afterDate"),
};

/** How a page's query finds its first row (docs/specification.md section 4). */
export type PageMode = "first" | "offset" | "seek";

export function pageMode(page: Page): PageMode {
  return page.after ? "seek" : page.skip === 0 ? "first" : "offset";
}

export function pageValues(page: Page): Values {
  const after = page.after;
  return {
    count: page.count,
    skip: page.skip,
    afterId: after?.id,
    afterDate: after && "date" in after ? after.date : undefined,
  };
}

type RowsOfAll<T extends readonly Bound<unknown>[]> = {
  -readonly [K in keyof T]: T[K] extends Bound<infer R> ? R : never;
};

/** One D1 round trip, on the request's (metered) database. */
export async function runBatch<const T extends readonly Bound<unknown>[]>(
  db: Database,
  queries: T,
): Promise<RowsOfAll<T>> {
  const client = db.$client;
  const results = await client.batch(queries.map((q) => client.prepare(q.sql).bind(...q.params)));
  return queries.map((q, i) => q.map(results[i]!)) as RowsOfAll<T>;
}

type PageQueries<Rows> = { total: CompiledQuery<{ total: number }[]>; rows: CompiledQuery<Rows> };

export function pageStatements<Rows>(q: PageQueries<Rows>, values: Values) {
  return [q.total.bind(values), q.rows.bind(values)] as const;
}

export async function runPage<Rows>(
  db: Database,
  statements: readonly [Bound<{ total: number }[]>, Bound<Rows>],
): Promise<{ total: number; rows: Rows }> {
  const [total, rows] = await runBatch(db, statements);
  return { total: total[0]?.total ?? 0, rows };
}
