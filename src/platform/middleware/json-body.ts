// JSON request bodies, read strictly (a 400 for another type or broken JSON) and held to a zod schema (one 422).
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { z, type ZodType } from "zod";
import { errors, validationHook } from "../errors.ts";

export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text === "") return {};
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw errors.badRequest("Send the body as JSON, with 'Content-Type: application/json'");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw errors.badRequest("The body is not valid JSON");
  }
}

/** The body parsed by `schema`, for the handler as `c.req.valid("json")`; an absent body is `{}`. */
export function jsonBody(schema: ZodType) {
  return createMiddleware(async (c, next) => {
    const result = schema.safeParse(await readJsonBody(c));
    validationHook(result);
    c.req.addValidatedData("json", result.data as object);
    await next();
  });
}

/** A body that is a JSON object, passed on as sent (the handler's rules judge its fields, unknown ones included). */
export const JsonObjectSchema = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { error: "must be a JSON object" },
);

/** The body held to JsonObjectSchema, for handlers that judge the fields themselves (the admin API's). */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const result = JsonObjectSchema.safeParse(await readJsonBody(c));
  validationHook(result);
  return result.data as Record<string, unknown>;
}
