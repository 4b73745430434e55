// SQL fragments that drizzle's builder has no function for, shared by the capabilities' queries.
import { type Placeholder, type SQL, sql, type SQLWrapper } from "drizzle-orm";

/** A REAL as JSON writes it: SQLite writes a whole REAL as `50.0`, so one within 2^53 is cast to an integer; other
 * forms that differ (17 digits, exponents) json-text.ts's asJavaScriptWrites finds. */
export function jsonNumber(x: SQLWrapper): SQL {
  return sql`case when ${x} = cast(${x} as integer) and abs(${x}) < 9007199254740992 then cast(${x} as integer) else ${x} end`;
}

// A LIMIT that SQLite's planner does not read: given a bare parameter, the planner reads its value, so each new binding
// prepares the whole statement again, which cost the orders page more than running it (docs/performance.md, "A LIMIT
// that is not a parameter"). A whole number is written into the SQL instead.
export function rowLimit(limit: Placeholder | number): Placeholder {
  if (typeof limit === "number" && !Number.isSafeInteger(limit)) throw new RangeError(`a row limit of ${limit}`);
  return (typeof limit === "number"
    ? sql.raw(String(limit))
    : sql`cast(${limit} as integer)`) as unknown as Placeholder;
}

// LIMIT 0 once the offset reaches the kept total: an OFFSET past the end reads every row first (docs/specification.md
// section 4). The cast is safe: drizzle writes any SQL given as a LIMIT as it is.
export function limitWithinTotal(offset: Placeholder, kept: SQLWrapper, limit: Placeholder | number): Placeholder {
  return sql`case when ${offset} < coalesce(${kept}, 0) then ${limit} else 0 end` as unknown as Placeholder;
}
