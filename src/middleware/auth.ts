// API key authentication (SPEC.md section 2). Runs before validation and rate limiting, on every
// API route (index.ts attaches it to each one). Does no D1 work: one KV read at most, usually none.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { errors } from "../lib/errors.ts";
import { KEY_PATTERN } from "../keys/secret.ts";

const SCHEME = /^bearer$/i;

export const auth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  if (header === undefined || header === "") {
    throw errors.unauthenticated("Missing credentials: send the header 'Authorization: Bearer <API key>'");
  }
  // Exactly: scheme, one space, key. Nothing is trimmed: stray whitespace makes the key invalid.
  const space = header.indexOf(" ");
  const scheme = space === -1 ? header : header.slice(0, space);
  if (!SCHEME.test(scheme)) {
    throw errors.unauthenticated("Malformed Authorization header: the scheme must be Bearer");
  }
  const secret = header.slice(space + 1);
  const match = KEY_PATTERN.exec(secret);
  if (!match) {
    throw errors.unauthenticated(
      "Malformed API key: the header must be 'Bearer', one space and the key, with no other whitespace",
    );
  }
  const mode = c.env.MODE === "live" ? "live" : "test";
  if (match[1] !== mode) {
    throw errors.unauthenticated(`Wrong mode: this is a ${match[1]}-mode key; this deployment accepts ${mode}-mode keys`);
  }

  const keys = c.get("services").keys;
  const record = await keys.findBySecret(secret);
  if (!record || record.mode !== mode) throw errors.unauthenticated("Invalid API key: no such key");
  const state = keys.stateOf(record);
  if (state === "revoked") throw errors.unauthenticated("Invalid API key: the key has been revoked");
  if (state === "expired") throw errors.unauthenticated("Invalid API key: the key has expired");

  c.set("apiKey", record);
  await next();
});
