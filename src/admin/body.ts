// Request bodies of the admin API and the dashboard's forms: size-limited, parsed strictly.
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { errors } from "../lib/errors.ts";

/** SPEC.md section 3: a body over 16 KiB is a 413. */
export const MAX_BODY_BYTES = 16 * 1024;

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw errors.payloadTooLarge(MAX_BODY_BYTES);
  },
});

/** A JSON body, or {} when there is none; anything else that does not parse as JSON is a 400. */
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
