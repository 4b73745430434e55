// The paging cursor that every next_page_url carries (docs/specification.md section 4): where the next
// page starts, so that following the link seeks straight to it instead of reading and throwing
// away every row before it (an OFFSET of n reads n rows first).
//
// A cursor is base64url JSON and holds nothing secret: a hand-made one can only seek within a
// listing that the key may read anyway, so it is neither signed nor encrypted. It is bound to
// everything that scopes its listing, so that it cannot be replayed against another one: the
// listing, its filters as normalized, count, the key's agent (null for a key bound to none),
// and the page it leads to.

export type Listing = "customers" | "orders" | "postalcodes" | "salesagents";

/** The sort key of a row: its id (ascending listings), or its date and id (orders, newest first). */
export type SortKey = { id: number } | { date: string; id: number };

/** A listing's filters as normalized: the same request always gives the same scope. */
export type Scope = Record<string, string | null>;

export interface Cursor {
  listing: Listing;
  scope: Scope;
  count: number;
  /** The key's sales agent where the key is bound to one and the listing is restricted to it; else null. */
  agent: number | null;
  /** The page number the cursor leads to. */
  page: number;
  /** The sort key of the last row before that page: the page starts right after it. */
  after: SortKey;
}

/** What a request asks for, to hold a cursor against. `page` only when the request sent one. */
export interface CursorRequest {
  listing: Listing;
  scope: Scope;
  count: number;
  agent: number | null;
  page?: number;
}

const VERSION = 1;
const LISTINGS: readonly Listing[] = ["customers", "orders", "postalcodes", "salesagents"];
/** Only the orders listing sorts by date: its key is [date, id]; the others' is [id]. */
const DATED: ReadonlySet<Listing> = new Set(["orders"]);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The largest page a cursor may lead to: the largest `page` a request may send. */
const MAX_PAGE = 999_999_999_999_999;
/** Far longer than any cursor this module makes; a longer text is not decoded at all. */
const MAX_LENGTH = 2048;

/** The wire form: short member names keep next_page_url short. */
interface Wire {
  v: number;
  l: Listing;
  s: Scope;
  n: number;
  a: number | null;
  p: number;
  k: [number] | [string, number];
}

export function encodeCursor(cursor: Cursor): string {
  const k: Wire["k"] = "date" in cursor.after ? [cursor.after.date, cursor.after.id] : [cursor.after.id];
  const wire: Wire = { v: VERSION, l: cursor.listing, s: cursor.scope, n: cursor.count, a: cursor.agent, p: cursor.page, k };
  return toBase64Url(JSON.stringify(wire));
}

/** The cursor in the text, or null when it is not one that encodeCursor made. */
export function decodeCursor(text: string): Cursor | null {
  if (text.length === 0 || text.length > MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let wire: unknown;
  try {
    wire = JSON.parse(fromBase64Url(text));
  } catch {
    return null;
  }
  if (!isRecord(wire) || wire.v !== VERSION) return null;
  const { l, s, n, a, p, k } = wire;
  if (typeof l !== "string" || !(LISTINGS as readonly string[]).includes(l)) return null;
  const listing = l as Listing;
  if (!isScope(s) || !isWhole(n, 1) || !(a === null || isWhole(a, 1)) || !isWhole(p, 2) || p > MAX_PAGE) return null;
  const after = sortKey(listing, k);
  if (!after) return null;
  return { listing, scope: s, count: n, agent: a, page: p, after };
}

/**
 * Why the cursor does not belong to the request (the first difference, for the 422's message), or
 * null when it does.
 */
export function cursorMismatch(cursor: Cursor, request: CursorRequest): string | null {
  if (cursor.listing !== request.listing) return "is for another listing";
  if (!sameScope(cursor.scope, request.scope)) return "is for other filters than this request's";
  if (cursor.count !== request.count) return "is for another count";
  if (cursor.agent !== request.agent) return "is for another sales agent";
  if (request.page !== undefined && cursor.page !== request.page) return `leads to page ${cursor.page}, not page ${request.page}`;
  return null;
}

function sortKey(listing: Listing, k: unknown): SortKey | null {
  if (!Array.isArray(k)) return null;
  if (DATED.has(listing)) {
    const [date, id] = k as unknown[];
    return k.length === 2 && typeof date === "string" && ISO_DATE.test(date) && isWhole(id, 1) ? { date, id } : null;
  }
  const [id] = k as unknown[];
  return k.length === 1 && isWhole(id, 1) ? { id } : null;
}

function sameScope(a: Scope, b: Scope): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScope(value: unknown): value is Scope {
  return isRecord(value) && Object.values(value).every((v) => v === null || typeof v === "string");
}

function isWhole(value: unknown, min: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min;
}

function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Throws on text that is not base64url of UTF-8. */
function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
}
