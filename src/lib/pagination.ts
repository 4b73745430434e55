// The one place that builds paging (docs/specification.md section 4).
import { z } from "zod";
import type { SortKey } from "./cursor.ts";

export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 100;

export interface Page {
  count: number;
  /** Rows before the page; with `after`, only what current_page is worked out from. */
  skip: number;
  /** From a cursor: the page is the rows right after this one (a seek), not `skip` rows in. */
  after?: SortKey;
}

/**
 * The `pagination` object of a listing's answer: the one schema of it. Its type is inferred from it,
 * and the OpenAPI document's Pagination component is this schema (src/schemas/common.ts).
 */
export const PaginationSchema = z.object({
  current_page: z.number().int(),
  first_page_url: z.string().url(),
  prev_page_url: z.string().url().nullable(),
  next_page_url: z.string().url().nullable(),
  last_page_url: z.string().url(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  path: z.string().url(),
});

export type Pagination = z.infer<typeof PaginationSchema>;

/** count and skip from the validated query; page is the alternative to skip. */
export function toPage(query: { count?: number; skip?: number; page?: number }): Page {
  const count = query.count ?? DEFAULT_COUNT;
  const skip = query.page !== undefined ? (query.page - 1) * count : (query.skip ?? 0);
  return { count, skip };
}

/** The page a cursor leads to: its page number's place, seeking past the cursor's row. */
export function toCursorPage(count: number, cursor: { page: number; after: SortKey }): Page {
  return { count, skip: (cursor.page - 1) * count, after: cursor.after };
}

/**
 * Which of a page's rows is the last one before the next page (the row a next_page_url's cursor
 * seeks past), or -1 when there is none. It is the page's last row, unless `skip` is not a
 * multiple of `count`: page N + 1 then starts inside this page's rows, as offset paging has it.
 */
export function lastRowBeforeNextPage(page: Page, rows: number): number {
  const currentPage = Math.floor(page.skip / page.count) + 1;
  const index = currentPage * page.count - 1 - page.skip;
  return index < rows ? index : rows - 1;
}

/**
 * @param requestUrl the URL called; its origin and path make `path`
 * @param carried the request's other parameters, as given, repeated in every page URL before `page`
 *   (never `page` itself)
 * @param nextCursor the cursor that next_page_url carries after `page` (the other URLs carry none)
 */
export function buildPagination(
  requestUrl: string,
  page: Page,
  total: number,
  carried: ReadonlyArray<readonly [string, string]>,
  nextCursor?: string,
): Pagination {
  const url = new URL(requestUrl);
  const path = `${url.origin}${url.pathname}`;
  const currentPage = Math.floor(page.skip / page.count) + 1;
  const lastPage = Math.max(1, Math.ceil(total / page.count));
  // Encoded once for the up to four links: a list page builds them on every request.
  const query = new URLSearchParams(carried as Array<[string, string]>).toString();
  const prefix = `${path}?${query}${query ? "&" : ""}page=`;
  const pageUrl = (n: number) => `${prefix}${n}`;
  return {
    current_page: currentPage,
    first_page_url: pageUrl(1),
    prev_page_url: currentPage > 1 ? pageUrl(currentPage - 1) : null,
    next_page_url:
      currentPage < lastPage ? `${pageUrl(currentPage + 1)}${nextCursor === undefined ? "" : `&cursor=${nextCursor}`}` : null,
    last_page_url: pageUrl(lastPage),
    last_page: lastPage,
    per_page: page.count,
    total,
    path,
  };
}

/** The named parameters that the request gave, in the given order, for buildPagination's `carried`. */
export function carriedParams(query: (name: string) => string | undefined, names: readonly string[]) {
  const out: Array<readonly [string, string]> = [];
  for (const name of names) {
    const value = query(name);
    if (value !== undefined) out.push([name, value]);
  }
  return out;
}
