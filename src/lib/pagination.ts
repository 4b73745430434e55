// The one place that builds paging (SPEC.md section 4).

export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 100;

export interface Page {
  count: number;
  skip: number;
}

export interface Pagination {
  current_page: number;
  first_page_url: string;
  prev_page_url: string | null;
  next_page_url: string | null;
  last_page_url: string;
  last_page: number;
  per_page: number;
  total: number;
  path: string;
}

/** count and skip from the validated query; page is the alternative to skip. */
export function toPage(query: { count?: number; skip?: number; page?: number }): Page {
  const count = query.count ?? DEFAULT_COUNT;
  const skip = query.page !== undefined ? (query.page - 1) * count : (query.skip ?? 0);
  return { count, skip };
}

/**
 * @param requestUrl the URL called; its origin and path make `path`
 * @param carried the request's other parameters, as given, repeated in every page URL before `page`
 *   (never `page` itself)
 */
export function buildPagination(
  requestUrl: string,
  page: Page,
  total: number,
  carried: ReadonlyArray<readonly [string, string]>,
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
    next_page_url: currentPage < lastPage ? pageUrl(currentPage + 1) : null,
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
