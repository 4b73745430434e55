// The one place that builds paging (docs/specification.md section 4).
import { z } from "@hono/zod-openapi";
import type { SortKey } from "./cursor.ts";

export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 100;

export interface Page {
  count: number;
  /** With `after`, used only to work out current_page. */
  skip: number;
  /** From a cursor: the page seeks past this row instead of skipping. */
  after?: SortKey;
}

const paginationExample = {
  current_page: 1,
  first_page_url: "http://127.0.0.1:8787/api/customers?count=10&page=1",
  prev_page_url: null,
  next_page_url: "http://127.0.0.1:8787/api/customers?count=10&page=2",
  last_page_url: "http://127.0.0.1:8787/api/customers?count=10&page=30",
  last_page: 30,
  per_page: 10,
  total: 300,
  path: "http://127.0.0.1:8787/api/customers",
};

export const PaginationSchema = z
  .object({
    current_page: z.number().int(),
    first_page_url: z.string().url(),
    prev_page_url: z.string().url().nullable(),
    next_page_url: z.string().url().nullable(),
    last_page_url: z.string().url(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    path: z.string().url(),
  })
  .openapi("Pagination", { example: paginationExample });

export type Pagination = z.infer<typeof PaginationSchema>;

export function toPage(query: { count?: number; skip?: number; page?: number }): Page {
  const count = query.count ?? DEFAULT_COUNT;
  const skip = query.page !== undefined ? (query.page - 1) * count : (query.skip ?? 0);
  return { count, skip };
}

export function toCursorPage(count: number, cursor: { page: number; after: SortKey }): Page {
  return { count, skip: (cursor.page - 1) * count, after: cursor.after };
}

// The row a next_page_url's cursor seeks past, or -1. Not the page's last row when `skip` is not a multiple of `count`:
// page N + 1 then starts inside this page's rows.
export function lastRowBeforeNextPage(page: Page, rows: number): number {
  const currentPage = Math.floor(page.skip / page.count) + 1;
  const index = currentPage * page.count - 1 - page.skip;
  return index < rows ? index : rows - 1;
}

/** `carried`: the request's other parameters as given, never `page`; only next_page_url gets the cursor. */
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
      currentPage < lastPage
        ? `${pageUrl(currentPage + 1)}${nextCursor === undefined ? "" : `&cursor=${nextCursor}`}`
        : null,
    last_page_url: pageUrl(lastPage),
    last_page: lastPage,
    per_page: page.count,
    total,
    path,
  };
}

export function carriedParams(query: (name: string) => string | undefined, names: readonly string[]) {
  const out: Array<readonly [string, string]> = [];
  for (const name of names) {
    const value = query(name);
    if (value !== undefined) out.push([name, value]);
  }
  return out;
}
