// The key list's page and its forms (section 9): filters, agent search, the make-key form, the rotation of many keys.
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { ApiError, errors } from "../platform/errors.ts";
import {
  COPY_JOB_INTERVAL_SECONDS,
  KV_PROPAGATION_SECONDS,
  REVOCATION_BOUND_LOCAL_SECONDS,
  REVOCATION_BOUND_PRODUCTION_SECONDS,
} from "../keys/keys.store.ts";
import type { KeyListFilters, KeyStore } from "../keys/keys.store.ts";
import { DEFAULT_AUDIT_LIMIT } from "../keys/keys.audit.ts";
import { createKey, requestRotation } from "../admin/admin.keys.ts";
import { keyForm, type KeyFormValues, number, optionalNumber, rotationForm } from "./dashboard.forms.ts";
import {
  agentsShown,
  alreadySentNotice,
  type DashContext,
  type DashEnv,
  dashboardActor,
  formPageBase,
  modeOf,
  NOT_SEARCHED,
  oneTimeForm,
  outOfDateMessage,
  searchedPicker,
} from "./dashboard.guards.tsx";
import { listAddress, listKeyPage, readKeyListQuery } from "./dashboard.key-list.query.ts";
import { type KeysPageProps, KeysPage } from "./dashboard.keys.view.tsx";
import { pageSession } from "./dashboard.signin.tsx";

const BOUNDS = { local: REVOCATION_BOUND_LOCAL_SECONDS, production: REVOCATION_BOUND_PRODUCTION_SECONDS };
const NOT_MADE = "The key was not made";
const NOT_REQUESTED = "The rotation was not requested";

const makeOnce = oneTimeForm(async (c) => outOfDate(c, NOT_MADE, await formValues(c)));
const rotateOnce = oneTimeForm((c) => outOfDate(c, NOT_REQUESTED));

/** The make-key form's values for a page answering a stale token, which runs before the route reads them. */
async function formValues(c: DashContext): Promise<KeyFormValues> {
  return keyForm.parse(await c.req.parseBody({ all: true }));
}

export const keysRoutes = new Hono<DashEnv>()
  .get("/dashboard", pageSession, async (c) => {
    const query = c.req.query("agent_q");
    if (query === undefined) {
      return withErrorsShown(c, "The keys were not filtered", undefined, async () =>
        renderKeys(c, { notice: await noticeOf(c) }, 200, readKeyListQuery(c.req.query())),
      );
    }
    return withErrorsShown(c, NOT_SEARCHED, undefined, async () =>
      renderKeys(c, { picker: await searchedPicker(c, query) }),
    );
  })
  // The make-key form's "Find agents": the page again, with the agents found and the form as it was typed.
  .post("/dashboard/keys/agents", zValidator("form", keyForm), async (c) => {
    const values = c.req.valid("form");
    return withErrorsShown(c, NOT_SEARCHED, values, async () =>
      renderKeys(c, { picker: await searchedPicker(c, values.agent_q ?? ""), form: values }),
    );
  })
  .post("/dashboard/keys", makeOnce, zValidator("form", keyForm), async (c) => {
    const values = c.req.valid("form");
    return withErrorsShown(c, NOT_MADE, values, async () => {
      const created = await createKey(
        c.get("services").keys,
        {
          name: values.name,
          mode: values.mode,
          expires_in: optionalNumber(values.expires_in, null),
          scopes: values.scopes,
          agent_id: optionalNumber(values.agent_id, null),
        },
        dashboardActor(c),
      );
      return renderKeys(c, { newKey: { created }, notice: pendingNotice(created.copy_pending) });
    });
  })
  // The ticked keys, or every active key of the list's mode or agent filter; then 303 back to that list.
  .post("/dashboard/keys/rotation", rotateOnce, zValidator("form", rotationForm), async (c) => {
    const { scope, ids, mode, agent_id, back } = c.req.valid("form");
    return withErrorsShown(c, NOT_REQUESTED, undefined, async () => {
      if (scope === "selected" && ids.length === 0) {
        throw errors.validation([{ field: "ids", message: "must name at least one key: tick the keys to rotate" }]);
      }
      const body =
        scope === "mode"
          ? { mode }
          : scope === "agent"
            ? { agent_id: agent_id === undefined ? undefined : number(agent_id) }
            : { ids };
      const { requested } = await requestRotation(c.get("services").keys, body, dashboardActor(c));
      const list = listAddress(back);
      return c.redirect(`${list}${list.includes("?") ? "&" : "?"}requested=${requested}`, 303);
    });
  });

export async function renderKeys(
  c: DashContext,
  extra: Partial<KeysPageProps> = {},
  status: 200 | 404 | 409 | 422 = 200,
  listing: { filters: KeyListFilters; before: string | null } = { filters: {}, before: null },
): Promise<Response> {
  const { keys: store, db } = c.get("services");
  const [list, entries, base, { picker }] = await Promise.all([
    listKeyPage(store, listing.filters, listing.before),
    store.audit(DEFAULT_AUDIT_LIMIT),
    formPageBase(c),
    agentsShown(db, [], extra),
  ]);
  return c.html(
    <KeysPage
      {...base}
      mode={modeOf(c)}
      list={list}
      audit={{ entries, limit: DEFAULT_AUDIT_LIMIT }}
      bounds={BOUNDS}
      {...extra}
      picker={picker}
    />,
    status,
  );
}

/** Runs a change; a refusal (unknown key, conflict, bad input) is shown on the page, not thrown. */
export async function withErrorsShown(
  c: DashContext,
  what: string,
  form: KeysPageProps["form"],
  work: () => Promise<Response>,
): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 409 && err.status !== 422)) throw err;
    const error = { message: `${what}: ${err.description}.`, fields: err.options.fields };
    return renderKeys(c, { error, form }, err.status);
  }
}

export function outOfDate(c: DashContext, what: string, form?: KeysPageProps["form"]): Promise<Response> {
  return renderKeys(c, { error: { message: outOfDateMessage(what) }, form }, 409);
}

async function noticeOf(c: DashContext): Promise<string | undefined> {
  const sent = alreadySentNotice(c, "A new key's secret", "if it was not copied, revoke that key and make another.");
  if (sent) return sent;
  const requested = c.req.query("requested");
  if (requested !== undefined && /^\d{1,6}$/.test(requested)) {
    const n = Number(requested);
    return n === 0
      ? "No key was marked: none of the keys chosen was active with its rotation not yet asked for."
      : `Rotation was requested for ${n} ${n === 1 ? "key" : "keys"}. Each keeps working and carries ` +
          `Key-Rotation: due within 60 seconds, so that its app rotates it.`;
  }
  const store = c.get("services").keys;
  const lineage = c.req.query("revoked_lineage");
  if (lineage !== undefined) return revokedLineageNotice(store, lineage, c.req.query("n"));
  const id = c.req.query("revoked");
  if (id === undefined) return undefined;
  const found = await store.getWithCopy(id);
  if (!found || store.stateOf(found.record) !== "revoked") return undefined;
  const { record } = found;
  return (
    pendingNotice(found.copyPending) ??
    `Key “${record.name}” (${record.prefix}) is revoked. It stops working everywhere within ` +
      `${BOUNDS.local} seconds locally and about ${BOUNDS.production} seconds in production.`
  );
}

async function revokedLineageNotice(store: KeyStore, id: string, n: string | undefined): Promise<string | undefined> {
  const record = await store.get(id);
  if (!record || store.stateOf(record) !== "revoked") return undefined;
  const count = n !== undefined && /^\d{1,6}$/.test(n) ? Number(n) : null;
  const how = count === null ? "" : ` (${count} ${count === 1 ? "key was" : "keys were"} still working)`;
  return (
    `Every key of the lineage of “${record.name}” (${record.prefix}) is revoked${how}: the key, the keys it was ` +
    `made from and those made from it by rotation or roll. They stop working everywhere within ${BOUNDS.local} ` +
    `seconds locally and about ${BOUNDS.production} seconds in production.`
  );
}

export function pendingNotice(copyPending: boolean): string | undefined {
  if (!copyPending) return undefined;
  return (
    "The change is saved, but the copy that authentication reads could not be written yet: until it is, " +
    "authentication may still treat the key as it did before the change. It is written again within " +
    `${COPY_JOB_INTERVAL_SECONDS / 60} minutes (in production, plus up to ${KV_PROPAGATION_SECONDS} seconds of KV's propagation); ` +
    "revoking a key writes its copy again at once."
  );
}
