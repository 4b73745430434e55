// Paging between the request and the query (docs/specification.md section 4): the page a request asks for (page, skip
// or cursor) and its answer's pagination object.
import { type CursorRequest, type SortKey, cursorMismatch, decodeCursor, encodeCursor } from "./cursor.ts";
import { errors } from "../errors.ts";
import {
  buildPagination,
  DEFAULT_COUNT,
  lastRowBeforeNextPage,
  type Page,
  type Pagination,
  toCursorPage,
  toPage,
} from "./pagination.ts";
import { NOT_A_CURSOR } from "./query-params.ts";

/** Validated: the schema has already refused skip with cursor. */
export interface PagingQuery {
  count?: number;
  skip?: number;
  page?: number;
  cursor?: string;
}

/** Everything a listing's cursor must match besides count and page. */
export type ListingScope = Omit<CursorRequest, "count" | "page">;

/** `agent`: the key's agent where the listing is restricted to it, so no cursor crosses agents' books. */
export function listingScope(
  listing: ListingScope["listing"],
  filters: ListingScope["scope"] = {},
  agent: number | null = null,
): ListingScope {
  return { listing, scope: filters, agent };
}

export function requestedPage(query: PagingQuery, scope: ListingScope): Page {
  if (query.cursor === undefined) return toPage(query);
  const count = query.count ?? DEFAULT_COUNT;
  const cursor = decodeCursor(query.cursor);
  if (!cursor) throw errors.validation([{ field: "cursor", message: NOT_A_CURSOR }]);
  const mismatch = cursorMismatch(cursor, { ...scope, count, page: query.page });
  if (mismatch) throw errors.validation([{ field: "cursor", message: `${mismatch}: follow next_page_url as given` }]);
  return toCursorPage(count, cursor);
}

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
