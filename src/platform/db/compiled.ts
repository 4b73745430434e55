// Read queries whose SQL text is built once per isolate instead of once per request.
//
// Drizzle builds a statement's SQL from its query builder every time it runs; for the pages
// (several joined statements of many aliased columns) that was the largest share of the worker's
// own CPU in the workerd profiler, and building it once took the orders page from about 177 to
// 270 req/s under `wrangler dev`. The text never changes between requests, only the values bound
// to it. So each query is built once, with sql.placeholder() where the values go; a request binds
// its values and runs its statements in one D1 batch. Rows come back as the query builder would
// have returned them.
import { Column, fillPlaceholders, is, noopDecoder, type Placeholder, SQL, sql, type SQLWrapper } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { PreparedQueryConfig, SQLitePreparedQuery } from "drizzle-orm/sqlite-core";
import type { Page } from "../paging/pagination.ts";
import type { Database } from "./database.ts";

/** A database that only compiles: prepare() hands back nothing, and nothing ever executes. */
const compiler = drizzle({ prepare: () => ({}) } as unknown as D1Database);
export type Compiler = typeof compiler;

type Prepared = SQLitePreparedQuery<PreparedQueryConfig & { type: "async" }>;
type RowsOf<P> = P extends SQLitePreparedQuery<infer C> ? C["all"] : never;
type Values = Record<string, unknown>;

/** A compiled query with one request's values: a statement of a batch. */
export interface Bound<Rows> {
  readonly sql: string;
  readonly params: unknown[];
  /** Maps this statement's result in the batch to rows (typed as the query builder types them). */
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

/**
 * Rows of a flat selection (every field at the top level, as all of ours are), mapped with the
 * decoders worked out once. Drizzle's own mapping works each field's decoder out again for every
 * value of every row, which costs more than the rest of a page's shaping. A prepared query keeps
 * its fields in column order as `fields`, which drizzle marks internal: without them, or for a
 * nested selection, drizzle maps the rows itself. D1 returns each row as an object in column
 * order, so values are taken by position, as drizzle takes them.
 */
function flatRowMapper(prepared: Prepared): ((rows: Record<string, unknown>[]) => unknown[]) | null {
  const fields = (prepared as unknown as { fields?: { path: string[]; field: unknown }[] }).fields;
  if (!Array.isArray(fields) || fields.some((f) => f.path.length !== 1)) return null;
  const keys = fields.map((f) => f.path[0]!);
  const decoders = fields.map((f) => decoderOf(f.field));
  return (rows) =>
    rows.map((row) => {
      const values = Object.values(row);
      // Two result columns of one name collapse into one key: a query bug that must not pass silently.
      if (values.length !== keys.length) throw new Error(`a row has ${values.length} columns, the query selects ${keys.length}`);
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
  const sql = (is(field, SQL) ? field : is(field, SQL.Aliased) ? field.sql : null) as { decoder?: typeof noopDecoder } | null;
  const decoder = sql?.decoder;
  if (!decoder || decoder === noopDecoder) return null;
  return (value) => decoder.mapFromDriverValue(value);
}

/**
 * Queries built together (they may share subqueries), compiled at their first use in the isolate:
 * cold starts do not pay for the ones that no request needs.
 */
export function compiled<S extends Record<string, Prepared>>(build: (db: Compiler) => S): () => { [K in keyof S]: CompiledQuery<RowsOf<S[K]>> } {
  let queries: { [K in keyof S]: CompiledQuery<RowsOf<S[K]>> } | undefined;
  return () =>
    (queries ??= Object.fromEntries(
      Object.entries(build(compiler)).map(([name, prepared]) => [name, new CompiledQuery(prepared)]),
    ) as { [K in keyof S]: CompiledQuery<RowsOf<S[K]>> });
}

/** LIMIT and OFFSET of a page query, named as Page's fields (pageValues binds them). */
export const PAGE = {
  limit: sql.placeholder("count" satisfies keyof Page),
  offset: sql.placeholder("skip" satisfies keyof Page),
};

/**
 * A LIMIT that is `limit` while the page's offset is below `kept` (a listing's kept total, one
 * row read), else 0. SQLite reads nothing for LIMIT 0, where an OFFSET past the end would read
 * every row of the listing before finding none (docs/specification.md section 4, offset paging).
 * Drizzle types a LIMIT as a number or a placeholder; it writes any SQL given there as it is.
 */
export function limitWithin(kept: SQLWrapper, limit: Placeholder | number): Placeholder {
  return sql`case when ${PAGE.offset} < coalesce(${kept}, 0) then ${limit} else 0 end` as unknown as Placeholder;
}

/** The sort key of the row a cursor's page starts after (a seek instead of an OFFSET). */
export const AFTER = {
  id: sql.placeholder("afterId"),
  date: sql.placeholder("afterDate"),
};

/**
 * How a page's query finds its first row (docs/specification.md section 4): `first`, the first
 * page; `offset`, `skip` rows into the listing, skipped in its own index and never joined, and
 * nothing read at or past its kept total (limitWithin); `seek`, right after a cursor's sort key.
 */
export type PageMode = "first" | "offset" | "seek";

export function pageMode(page: Page): PageMode {
  return page.after ? "seek" : page.skip === 0 ? "first" : "offset";
}

/** A page's values for PAGE and AFTER. */
export function pageValues(page: Page): Values {
  const after = page.after;
  return { count: page.count, skip: page.skip, afterId: after?.id, afterDate: after && "date" in after ? after.date : undefined };
}

type RowsOfAll<T extends readonly Bound<unknown>[]> = { -readonly [K in keyof T]: T[K] extends Bound<infer R> ? R : never };

/** Runs bound queries in one db.batch(): one D1 round trip, on the request's (metered) database. */
export async function runBatch<const T extends readonly Bound<unknown>[]>(db: Database, queries: T): Promise<RowsOfAll<T>> {
  const client = db.$client;
  const results = await client.batch(queries.map((q) => client.prepare(q.sql).bind(...q.params)));
  return queries.map((q, i) => q.map(results[i]!)) as RowsOfAll<T>;
}

type PageQueries<Rows> = { total: CompiledQuery<{ total: number }[]>; rows: CompiledQuery<Rows> };

/** A page's total (a `{ total }` query: a kept count, or a count in an index) and rows, bound to the same values: a batch's statements. */
export function pageStatements<Rows>(q: PageQueries<Rows>, values: Values) {
  return [q.total.bind(values), q.rows.bind(values)] as const;
}

/** Runs a page's total and rows (pageStatements) in one round trip. */
export async function runPage<Rows>(
  db: Database,
  statements: readonly [Bound<{ total: number }[]>, Bound<Rows>],
): Promise<{ total: number; rows: Rows }> {
  const [total, rows] = await runBatch(db, statements);
  return { total: total[0]?.total ?? 0, rows };
}
