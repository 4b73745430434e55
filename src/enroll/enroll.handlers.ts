// POST /enroll and GET /enroll (section 9); failed exchanges throttled by the admin sign-in's rule, own bucket.
import type { RouteHandler } from "@hono/zod-openapi";
import { throttled } from "../admin/admin.signin-throttle.ts";
import { publicRecord } from "../keys/keys.store.ts";
import type { AppEnv } from "../env.ts";
import { errors } from "../platform/errors.ts";
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

export const exchange: RouteHandler<typeof routes.exchange, AppEnv> = async (c) => {
  const { code, device_name: deviceName = null } = c.req.valid("json");
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
