// Which X-D1-Bookmark values may reach D1's withSession(): workerd takes any non-empty text, so a caller's text (or
// "first-primary", sending every read to the primary) would reach D1 and be echoed back.

/** Longer than any bookmark D1 makes (about 60 characters), short enough to cost nothing. */
export const MAX_BOOKMARK_LENGTH = 256;

const BOOKMARK_SHAPE = /^[0-9a-f]+(?:-[0-9a-f]+)+$/i;

export function isD1Bookmark(value: string | null | undefined): value is string {
  return typeof value === "string" && value.length <= MAX_BOOKMARK_LENGTH && BOOKMARK_SHAPE.test(value);
}
