// Which X-D1-Bookmark values may reach withSession(), which takes any text (even "first-primary") and echoes it.

/** Longer than any bookmark D1 makes (about 60 characters), short enough to cost nothing. */
export const MAX_BOOKMARK_LENGTH = 256;

const BOOKMARK_SHAPE = /^[0-9a-f]+(?:-[0-9a-f]+)+$/i;

export function isD1Bookmark(value: string | null | undefined): value is string {
  return typeof value === "string" && value.length <= MAX_BOOKMARK_LENGTH && BOOKMARK_SHAPE.test(value);
}
