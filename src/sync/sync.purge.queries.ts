// The tombstone purge's statements. SQL text: an upserting INSERT ... SELECT and a DELETE over one LIMITed subquery.

// The oldest tombstones past the cutoff (?1) on the partial index of tombstones by age, ?2 at most. Both statements
// of a batch read the same rows: a batch is one transaction.
const CHUNK =
  "SELECT book, seq FROM sync_changes WHERE deleted = 1 AND changed_at < ?1 ORDER BY changed_at, seq LIMIT CAST(?2 AS INTEGER)";

export const purgeQueries = {
  /** A mark never goes down: a book's mark is the highest seq purged from it, in this run or before. */
  mark: (db: D1Database, cutoff: number, chunk: number) =>
    db
      .prepare(
        `INSERT INTO sync_books (book, purge_mark) SELECT book, max(seq) FROM (${CHUNK}) WHERE true GROUP BY book ` +
          "ON CONFLICT (book) DO UPDATE SET purge_mark = max(purge_mark, excluded.purge_mark)",
      )
      .bind(cutoff, chunk),
  purge: (db: D1Database, cutoff: number, chunk: number) =>
    db.prepare(`DELETE FROM sync_changes WHERE seq IN (SELECT seq FROM (${CHUNK}))`).bind(cutoff, chunk),
};
