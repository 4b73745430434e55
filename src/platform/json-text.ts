// An answer whose JSON body is text SQLite wrote, typed as the c.json answer it parses to.
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";

export function jsonTextAnswer<T>(c: Context, text: string) {
  const res = c.body(text, 200, { "Content-Type": "application/json" });
  return res as Response as Response & TypedResponse<JSONParsed<T>, 200, "json">;
}
