// JSON request bodies, read strictly (a 400 for another type or broken JSON) and held to a zod schema (one 422).
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ZodType } from "zod";
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
