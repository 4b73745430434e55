// A zod failure as the error envelope's fields: one entry per broken field (its first issue), in
// the order zod found them; an issue about the whole input is the field "request".
import type { ZodError } from "zod";
import type { FieldError } from "./errors.ts";

export function fieldErrors(error: ZodError): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "request";
    if (!seen.has(field)) seen.set(field, { field, message: issue.message });
  }
  return [...seen.values()];
}
