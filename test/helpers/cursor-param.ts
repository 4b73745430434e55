// The cursor that a next_page_url carries, made the way the service makes it, for whole-body
// assertions: `&cursor=...` after the page number.
import { encodeCursor, type Listing, type Scope, type SortKey } from "../../src/platform/paging/cursor.ts";

/**
 * `&cursor=<the cursor to page `page` of this listing, after the row with this sort key>`; `agent`
 * is the sales agent of an agent-bound key's listing (customers, orders).
 */
export function cursorParam(
  listing: Listing,
  scope: Scope,
  count: number,
  page: number,
  after: SortKey,
  agent: number | null = null,
): string {
  return `&cursor=${encodeCursor({ listing, scope, count, agent, page, after })}`;
}
