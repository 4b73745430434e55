// Which X-D1-Bookmark values a request may hand to D1's withSession(). D1 bookmarks are groups of
// hex digits joined by "-" (local D1 answers e.g. 00000000-00000003-00000000-<32 hex>). workerd
// checks only that a constraint is non-empty, and local D1 echoes any string back as the session's
// bookmark; so without this check a caller's arbitrary text (or "first-primary", which would send
// every read to the primary) would reach D1 and come back in the answer's X-D1-Bookmark.

/** Longer than any bookmark D1 makes (about 60 characters), short enough to cost nothing. */
export const MAX_BOOKMARK_LENGTH = 256;

const BOOKMARK_SHAPE = /^[0-9a-f]+(?:-[0-9a-f]+)+$/i;

/** Whether a header value has the shape of a D1 bookmark; anything else is treated as not sent. */
export function isD1Bookmark(value: string | null | undefined): value is string {
  return typeof value === "string" && value.length <= MAX_BOOKMARK_LENGTH && BOOKMARK_SHAPE.test(value);
}
