// The sync cursor (section 8): book, record shape and position as unsigned base64url JSON; a forged one reaches no
// more than the book (docs/decisions.md, sync cursors).
import { decodeBase64Url, encodeBase64Url } from "hono/utils/encode";

/** Bump when a customer or order record changes shape: older cursors then answer 410. */
export const RECORD_SHAPE = 1;

/** A first sync's walk, pinned at `start` (the book's highest seq when it began), after these keys. */
export interface WalkPosition {
  kind: "walk";
  start: number;
  /** The last customer walked (0 before the first). */
  customer: number;
  /** The last of that customer's orders walked (0: the customer itself), and its date ("" then). */
  order: number;
  date: string;
}

/** A later sync: every change of the book after this seq is still to come. */
export interface LogPosition {
  kind: "log";
  seq: number;
}

export interface SyncCursor {
  book: number;
  shape: number;
  position: WalkPosition | LogPosition;
}

interface Wire {
  b: number;
  h: number;
  s: number;
  w?: [number, number, string];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Far longer than any cursor made here; a longer text is not even decoded. */
const MAX_LENGTH = 256;

export function encodeSyncCursor(cursor: SyncCursor): string {
  const { position } = cursor;
  const wire: Wire =
    position.kind === "walk"
      ? { b: cursor.book, h: cursor.shape, s: position.start, w: [position.customer, position.order, position.date] }
      : { b: cursor.book, h: cursor.shape, s: position.seq };
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify(wire)).buffer).replace(/=+$/, "");
}

export function decodeSyncCursor(text: string): SyncCursor | null {
  if (text.length === 0 || text.length > MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let wire: unknown;
  try {
    wire = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(decodeBase64Url(text)));
  } catch {
    return null;
  }
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) return null;
  const { b, h, s, w, ...rest } = wire as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !isWhole(b, 1) || !isWhole(h, 0) || !isWhole(s, 0)) return null;
  if (w === undefined) return { book: b, shape: h, position: { kind: "log", seq: s } };
  if (!Array.isArray(w) || w.length !== 3 || !isWhole(w[0], 0) || !isWhole(w[1], 0)) return null;
  const date: unknown = w[2];
  if (typeof date !== "string" || (w[1] === 0 ? date !== "" : !ISO_DATE.test(date))) return null;
  return { book: b, shape: h, position: { kind: "walk", start: s, customer: w[0], order: w[1], date } };
}

function isWhole(value: unknown, min: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min;
}
