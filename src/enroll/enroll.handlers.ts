// POST /enroll and GET /enroll (section 9); failed exchanges throttled by the admin sign-in's rule, own bucket.
import type { RouteHandler } from "@hono/zod-openapi";
import { readJsonBody } from "../platform/middleware/json-body.ts";
import { throttled } from "../admin/admin.signin-throttle.ts";
import { publicRecord } from "../keys/keys.store.ts";
import type { AppEnv } from "../env.ts";
import { errors, type FieldError } from "../platform/errors.ts";
import { log } from "../platform/lib/log.ts";
import { type Exchange, enrollmentsFor, type Refusal } from "./enroll.codes.ts";
import * as routes from "./enroll.routes.ts";

const REFUSALS: Record<Refusal, string> = {
  unknown: "Unknown enrollment code: check it and try again, or ask for a new one",
  expired: "This enrollment code has expired: ask for a new one",
  used: "This enrollment code has already been used: ask for a new one",
  revoked: "This enrollment code has been revoked: ask for a new one",
  agent: "This enrollment code's sales agent no longer exists: ask for a new code",
};

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function readExchange(body: unknown): { code: string; deviceName: string | null } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.validation([{ field: "request", message: "must be a JSON object" }]);
  }
  const { code, device_name: device } = body as Record<string, unknown>;
  const problems: FieldError[] = [];
  if (typeof code !== "string" || code === "") problems.push({ field: "code", message: "is required: the code" });
  else if (code.length > 64) problems.push({ field: "code", message: "must be at most 64 characters" });
  if (device !== undefined && device !== null) {
    if (typeof device !== "string") problems.push({ field: "device_name", message: "must be text" });
    else if (CONTROL.test(device))
      problems.push({ field: "device_name", message: "must not contain control characters" });
  }
  if (problems.length > 0) throw errors.validation(problems);
  return { code: code as string, deviceName: typeof device === "string" ? device : null };
}

export const exchange: RouteHandler<typeof routes.exchange, AppEnv> = async (c) => {
  const { code, deviceName } = readExchange(await readJsonBody(c));
  const enrollments = enrollmentsFor(c.get("services"));
  let result = { outcome: "refused", why: "unknown" } as Exchange;
  await throttled(
    {
      db: c.get("services").primaryDb,
      connectingIp: c.req.header("CF-Connecting-IP"),
      bucket: "enroll",
      locked: errors.enrollmentLocked,
      failed: (address) =>
        log({
          level: "warn",
          request_id: c.var.requestId,
          event: "enrollment_exchange_failed",
          reason: result.outcome === "refused" ? result.why : null,
          address,
        }),
    },
    async () => {
      result = await enrollments.exchange(code, deviceName);
      return result.outcome !== "refused";
    },
  );
  if (result.outcome === "refused") throw errors.unauthenticated(REFUSALS[result.why]);
  const store = c.get("services").keys;
  c.header("Cache-Control", "no-store");
  const data = { ...publicRecord(result.record, store.stateOf(result.record)), secret: result.secret };
  return result.outcome === "made" ? c.json({ data }, 201) : c.json({ data }, 200);
};

// A relative Location keeps the origin the phone used; the browser carries the fragment (the code) over.
export const page: RouteHandler<typeof routes.page, AppEnv> = (c) => c.redirect(routes.ENROLL_SCREEN, 303);
