// Request bodies of the admin API: parsed strictly (their size limit is platform/middleware/body-limit.ts).
import type { Context } from "hono";
import { errors } from "../platform/errors.ts";

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
