// Paging of the four listings, between the request and the query: which page a request asks for
// (by page, skip or cursor) and the pagination object of its answer, whose next_page_url carries
// the cursor to the next page (docs/specification.md section 4).
import { type CursorRequest, type SortKey, cursorMismatch, decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { errors } from "../lib/errors.ts";
import { buildPagination, DEFAULT_COUNT, lastRowBeforeNextPage, type Page, type Pagination, toCursorPage, toPage } from "../lib/pagination.ts";
import { NOT_A_CURSOR } from "../schemas/params.ts";

/** The paging parameters of a validated query (the schema has already refused skip with cursor). */
export interface PagingQuery {
  count?: number;
  skip?: number;
  page?: number;
  cursor?: string;
}

/** What scopes a listing: everything a cursor of it must match besides count and page. */
export type ListingScope = Omit<CursorRequest, "count" | "page">;

/**
 * The listing's scope for this request. `agent` is the sales agent that the request's key is bound
 * to, for the listings that such a key sees restricted (customers, orders); null otherwise. A cursor
 * carries it, so that one made for one agent's book can never page through another's.
 */
export function listingScope(listing: ListingScope["listing"], filters: ListingScope["scope"] = {}, agent: number | null = null): ListingScope {
  return { listing, scope: filters, agent };
}

/** The page a request asks for; a cursor that belongs to another request is a 422 on `cursor`. */
export function requestedPage(query: PagingQuery, scope: ListingScope): Page {
  if (query.cursor === undefined) return toPage(query);
  const count = query.count ?? DEFAULT_COUNT;
  const cursor = decodeCursor(query.cursor);
  if (!cursor) throw errors.validation([{ field: "cursor", message: NOT_A_CURSOR }]);
  const mismatch = cursorMismatch(cursor, { ...scope, count, page: query.page });
  if (mismatch) throw errors.validation([{ field: "cursor", message: `${mismatch}: follow next_page_url as given` }]);
  return toCursorPage(count, cursor);
}

/** The answer's pagination; its next_page_url carries a cursor past the last row before that page. */
export function paginationOf<Row>(
  requestUrl: string,
  page: Page,
  total: number,
  carried: ReadonlyArray<readonly [string, string]>,
  rows: readonly Row[],
  sortKeyOf: (row: Row) => SortKey,
  scope: ListingScope,
): Pagination {
  const index = lastRowBeforeNextPage(page, rows.length);
  const cursor =
    index < 0
      ? undefined
      : encodeCursor({
          ...scope,
          count: page.count,
          page: Math.floor(page.skip / page.count) + 2,
          after: sortKeyOf(rows[index]!),
        });
  return buildPagination(requestUrl, page, total, carried, cursor);
}
