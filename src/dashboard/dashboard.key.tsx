// One key's forms (from dashboard.key-row.tsx): roll, revoke, revoke its lineage; refusals show on the list's page.
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { findKey, revokeKey, revokeLineage, rollKey, view } from "../admin/admin.keys.ts";
import { number, rollForm } from "./dashboard.forms.ts";
import { type DashEnv, dashboardActor, oneTimeForm } from "./dashboard.guards.tsx";
import { outOfDate, pendingNotice, renderKeys, withErrorsShown } from "./dashboard.keys.tsx";

const NOT_ROLLED = "The key was not rolled";
const rollOnce = oneTimeForm((c) => outOfDate(c, NOT_ROLLED));

export const keyRoutes = new Hono<DashEnv>()
  .post("/dashboard/keys/:id/roll", rollOnce, zValidator("form", rollForm), async (c) => {
    const { grace } = c.req.valid("form");
    return withErrorsShown(c, NOT_ROLLED, undefined, async () => {
      const store = c.get("services").keys;
      const id = c.req.param("id");
      const created = await rollKey(
        store,
        id,
        { grace: grace === undefined ? undefined : number(grace) },
        dashboardActor(c),
      );
      const replaced = view(store, await findKey(store, id), created.copy_pending);
      return renderKeys(c, { newKey: { created, replaced }, notice: pendingNotice(created.copy_pending) });
    });
  })
  .post("/dashboard/keys/:id/revoke", async (c) => {
    return withErrorsShown(c, "The key was not revoked", undefined, async () => {
      const revoked = await revokeKey(c.get("services").keys, c.req.param("id"), dashboardActor(c));
      return c.redirect(`/dashboard?revoked=${encodeURIComponent(revoked.id)}`, 303);
    });
  })
  .post("/dashboard/keys/:id/revoke-lineage", async (c) => {
    return withErrorsShown(c, "The keys were not revoked", undefined, async () => {
      const { record, revoked } = await revokeLineage(c.get("services").keys, c.req.param("id"), dashboardActor(c));
      return c.redirect(`/dashboard?revoked_lineage=${encodeURIComponent(record.id)}&n=${revoked}`, 303);
    });
  });
