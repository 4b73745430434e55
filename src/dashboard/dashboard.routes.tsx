// The dashboard's page and the forms it posts (docs/specification.md section 9, "The dashboard's forms").
// Every form is checked twice against CSRF: its Origin (hono/csrf) and the session's token.
import { type Context, Hono } from "hono";
import { csrf } from "hono/csrf";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { NONCE, type SecureHeadersVariables, secureHeaders } from "hono/secure-headers";
import type { Bindings, Variables } from "../env.ts";
import { ApiError, errors, toApiError } from "../platform/errors.ts";
import { errorName, log } from "../platform/lib/log.ts";
import {
  COPY_JOB_INTERVAL_SECONDS,
  KV_PROPAGATION_SECONDS,
  REVOCATION_BOUND_LOCAL_SECONDS,
  REVOCATION_BOUND_PRODUCTION_SECONDS,
} from "../keys/keys.store.ts";
import { limitBody } from "../platform/middleware/body-limit.ts";
import { createKey, findKey, requestRotation, revokeKey, revokeLineage, rollKey, view } from "../admin/admin.keys.ts";
import { FORM_TOKEN_FIELD, issueFormToken, useFormToken } from "../admin/admin.form-tokens.ts";
import { type AdminAgent, AGENT_SEARCH_LIMIT, agentsByIds, findAgents } from "../admin/admin.salesagents.ts";
import type { Database } from "../platform/db/database.ts";
import { DEFAULT_AUDIT_LIMIT } from "../keys/keys.audit.ts";
import type { KeyListFilters, KeyStore } from "../keys/keys.store.ts";
import { listKeyPage, readKeyListQuery } from "../admin/admin.key-list.ts";
import { signIn, signInAttemptOf } from "../admin/admin.signin-throttle.ts";
import { type KeysPageProps, KeysPage, LoginPage, MessagePage } from "./dashboard.pages.tsx";
import { type EnrollmentsPageProps, EnrollmentsPage } from "./dashboard.enrollments.tsx";
import { enrollmentsFor } from "../enroll/enroll.codes.ts";
import { adminTokenMatches } from "../admin/admin.token.ts";
import {
  CSRF_FIELD,
  type Session,
  csrfTokenValid,
  endSession,
  readSession,
  startSession,
} from "../admin/admin.session.ts";

type FormValue = string | File;
type FormBody = Record<string, FormValue | FormValue[]>;
type DashEnv = {
  Bindings: Bindings;
  Variables: Variables & SecureHeadersVariables & { session: Session; form: FormBody };
};
type DashContext = Context<DashEnv>;

const dashboardActor = (c: DashContext) => ({ actor: "dashboard", sessionId: c.get("session").id }) as const;

const BOUNDS = { local: REVOCATION_BOUND_LOCAL_SECONDS, production: REVOCATION_BOUND_PRODUCTION_SECONDS };

const ALREADY_SENT = "already-sent";

export const dashboardRoutes = new Hono<DashEnv>();

dashboardRoutes.use(
  "/dashboard/*",
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: [NONCE],
      styleSrc: [NONCE],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  }),
  async (c, next) => {
    await next();
    // Pages carry a fresh secret or the CSRF token: no cache may keep them.
    c.header("Cache-Control", "no-store");
  },
);

dashboardRoutes.onError((err, c) => {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    log({ level: "error", request_id: c.get("requestId"), error: errorName(err), status: apiError.status });
  }
  const title = apiError.status === 413 ? "Form too large" : "Something went wrong";
  return c.html(<MessagePage nonce={nonceOf(c)} title={title} message={apiError.description} />, apiError.status);
});

/** hono/csrf's check, answered with a page instead of a bare 403. */
const sameOrigin = csrf();
const checkOrigin = createMiddleware<DashEnv>(async (c, next) => {
  try {
    await sameOrigin(c, async () => {});
  } catch (err) {
    if (err instanceof HTTPException && err.status === 403) return staleForm(c);
    throw err;
  }
  await next();
});

const requireSession = createMiddleware<DashEnv>(async (c, next) => {
  const session = await readSession(c);
  if (!session) {
    return c.html(
      <LoginPage nonce={nonceOf(c)} error="Your session has ended: log in again. Nothing was changed." />,
      401,
    );
  }
  // all: a field sent more than once (the scopes' checkboxes) is kept as a list.
  const form = await c.req.parseBody({ all: true });
  const given = form[CSRF_FIELD];
  if (!(await csrfTokenValid(session, typeof given === "string" ? given : null))) return staleForm(c);
  c.set("session", session);
  c.set("form", form);
  await next();
});

// A page's GET without a session answers with the sign-in form.
const pageSession = createMiddleware<DashEnv>(async (c, next) => {
  const session = await readSession(c);
  if (!session) return c.html(<LoginPage nonce={nonceOf(c)} />);
  c.set("session", session);
  await next();
});

const NOT_SEARCHED = "The agents were not searched";

// An agent search (the picker's GET form): its matches become the form's choices.
async function searchedPicker(c: DashContext, query: string): Promise<KeysPageProps["picker"]> {
  const agents = await findAgents(c.get("services").db, query);
  return { query, agents, focusFirst: agents.length > 0, limit: AGENT_SEARCH_LIMIT };
}

dashboardRoutes.get("/dashboard", pageSession, async (c) => {
  const session = c.get("session");
  const query = c.req.query("agent_q");
  if (query === undefined) {
    return withErrorsShown(c, "The keys were not filtered", undefined, async () =>
      renderKeys(c, session, { notice: await noticeOf(c) }, 200, readKeyListQuery(c.req.query())),
    );
  }
  return withErrorsShown(c, NOT_SEARCHED, undefined, async () =>
    renderKeys(c, session, { picker: await searchedPicker(c, query) }),
  );
});

dashboardRoutes.get("/dashboard/enrollments", pageSession, async (c) => {
  const query = c.req.query("agent_q");
  if (query === undefined) return renderEnrollments(c, { notice: await enrollmentNoticeOf(c) });
  try {
    return await renderEnrollments(c, { picker: await searchedPicker(c, query) });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    return renderEnrollments(c, { error: { message: `${NOT_SEARCHED}: ${err.description}.` } }, 422);
  }
});

// The forms' addresses, reloaded or bookmarked after a POST, lead back to the page.
dashboardRoutes.get("/dashboard/*", (c) => c.redirect("/dashboard", 303));

dashboardRoutes.post("/dashboard/login", checkOrigin, limitBody, async (c) => {
  const given = (await c.req.parseBody()).token;
  const attempt = signInAttemptOf(c, "dashboard");
  let matched: boolean;
  try {
    matched = await signIn(
      attempt,
      async () => typeof given === "string" && (await adminTokenMatches(c.env.ADMIN_TOKEN, given, c.var.requestId)),
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) return lockedOut(c, err);
    throw err;
  }
  if (!matched) {
    return c.html(
      <LoginPage nonce={nonceOf(c)} error="That is not the administrator token. Nobody was logged in." />,
      401,
    );
  }
  await startSession(c);
  return c.redirect("/dashboard", 303);
});

dashboardRoutes.post("/dashboard/logout", checkOrigin, limitBody, requireSession, async (c) => {
  await endSession(c, c.get("session"));
  return c.redirect("/dashboard", 303);
});

/**
 * For the forms whose answer shows a new secret or code; `stale` shows the form again with a new token, and a form
 * sent again answers 303 to `list`.
 */
function oneTimeForm(stale: (c: DashContext) => Promise<Response>, list = "/dashboard") {
  return createMiddleware<DashEnv>(async (c, next) => {
    const use = await useFormToken(c.get("services").primaryDb, {
      token: text(c.get("form")[FORM_TOKEN_FIELD]),
      sessionId: c.get("session").id,
      form: c.req.path,
    });
    if (use === "used") return c.redirect(`${list}?notice=${ALREADY_SENT}`, 303);
    if (use === "foreign") return staleForm(c);
    if (use === "stale") return stale(c);
    await next();
  });
}

function createFormValues(c: DashContext) {
  const form = c.get("form");
  return {
    name: text(form.name),
    mode: text(form.mode),
    expires_in: text(form.expires_in),
    // No box ticked sends no field: an empty list, which the rules refuse (absent would mean both).
    scopes: texts(form.scopes),
    agent_id: text(form.agent_id),
  };
}

const NOT_MADE = "The key was not made";
const NOT_ROLLED = "The key was not rolled";
const NOT_REQUESTED = "The rotation was not requested";
const makeOnce = oneTimeForm((c) => outOfDate(c, NOT_MADE, createFormValues(c)));
const rollOnce = oneTimeForm((c) => outOfDate(c, NOT_ROLLED));
const rotateOnce = oneTimeForm((c) => outOfDate(c, NOT_REQUESTED));

// The make-key form's "Find agents": the page again, with the agents found and the form as it was typed.
dashboardRoutes.post("/dashboard/keys/agents", checkOrigin, limitBody, requireSession, async (c) => {
  const values = createFormValues(c);
  return withErrorsShown(c, NOT_SEARCHED, values, async () =>
    renderKeys(c, c.get("session"), {
      picker: await searchedPicker(c, text(c.get("form").agent_q) ?? ""),
      form: values,
    }),
  );
});

dashboardRoutes.post("/dashboard/keys", checkOrigin, limitBody, requireSession, makeOnce, async (c) => {
  const values = createFormValues(c);
  return withErrorsShown(c, NOT_MADE, values, async () => {
    const created = await createKey(
      c.get("services").keys,
      {
        name: values.name,
        mode: values.mode,
        expires_in: values.expires_in === "" || values.expires_in === undefined ? null : number(values.expires_in),
        scopes: values.scopes,
        agent_id: values.agent_id === "" || values.agent_id === undefined ? null : number(values.agent_id),
      },
      dashboardActor(c),
    );
    return renderKeys(c, c.get("session"), { newKey: { created }, notice: pendingNotice(created.copy_pending) });
  });
});

dashboardRoutes.post("/dashboard/keys/:id/roll", checkOrigin, limitBody, requireSession, rollOnce, async (c) => {
  const grace = text(c.get("form").grace);
  return withErrorsShown(c, NOT_ROLLED, undefined, async () => {
    const store = c.get("services").keys;
    const created = await rollKey(
      store,
      c.req.param("id"),
      { grace: grace === undefined ? undefined : number(grace) },
      dashboardActor(c),
    );
    const replaced = view(store, await findKey(store, c.req.param("id")), created.copy_pending);
    return renderKeys(c, c.get("session"), {
      newKey: { created, replaced },
      notice: pendingNotice(created.copy_pending),
    });
  });
});

dashboardRoutes.post("/dashboard/keys/:id/revoke", checkOrigin, limitBody, requireSession, async (c) => {
  return withErrorsShown(c, "The key was not revoked", undefined, async () => {
    const revoked = await revokeKey(c.get("services").keys, c.req.param("id"), dashboardActor(c));
    return c.redirect(`/dashboard?revoked=${encodeURIComponent(revoked.id)}`, 303);
  });
});

// The selected keys, or every active key of the mode or the agent that the list was filtered by; back to
// that list (303), which then shows the keys' new state.
dashboardRoutes.post("/dashboard/keys/rotation", checkOrigin, limitBody, requireSession, rotateOnce, async (c) => {
  const form = c.get("form");
  const scope = text(form.scope);
  return withErrorsShown(c, NOT_REQUESTED, undefined, async () => {
    const ids = texts(form.ids);
    if (scope === "selected" && ids.length === 0) {
      throw errors.validation([{ field: "ids", message: "must name at least one key: tick the keys to rotate" }]);
    }
    const agentId = text(form.agent_id);
    const body =
      scope === "mode"
        ? { mode: text(form.mode) }
        : scope === "agent"
          ? { agent_id: agentId === undefined ? undefined : number(agentId) }
          : { ids };
    const { requested } = await requestRotation(c.get("services").keys, body, dashboardActor(c));
    const back = listAddress(text(form.back));
    return c.redirect(`${back}${back.includes("?") ? "&" : "?"}requested=${requested}`, 303);
  });
});

dashboardRoutes.post("/dashboard/keys/:id/revoke-lineage", checkOrigin, limitBody, requireSession, async (c) => {
  return withErrorsShown(c, "The keys were not revoked", undefined, async () => {
    const { record, revoked } = await revokeLineage(c.get("services").keys, c.req.param("id"), dashboardActor(c));
    return c.redirect(`/dashboard?revoked_lineage=${encodeURIComponent(record.id)}&n=${revoked}`, 303);
  });
});

/** Only an address of the key list itself: the form's field must not send the browser elsewhere. */
function listAddress(given: string | undefined): string {
  return given !== undefined && /^\/dashboard(\?[\w.~%&=+-]*)?$/.test(given) ? given : "/dashboard";
}

// The make-key form's fields, and the life of the key the code makes.
function codeFormValues(c: DashContext) {
  return { ...createFormValues(c), key_expires_in: text(c.get("form").key_expires_in) };
}

const NOT_MADE_CODE = "The enrollment code was not made";
const makeCodeOnce = oneTimeForm(
  (c) => renderEnrollments(c, { error: { message: outOfDateMessage(NOT_MADE_CODE) }, form: codeFormValues(c) }, 409),
  "/dashboard/enrollments",
);

dashboardRoutes.post("/dashboard/enrollments/agents", checkOrigin, limitBody, requireSession, async (c) => {
  const values = codeFormValues(c);
  try {
    return await renderEnrollments(c, {
      picker: await searchedPicker(c, text(c.get("form").agent_q) ?? ""),
      form: values,
    });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    return renderEnrollments(c, { error: { message: `${NOT_SEARCHED}: ${err.description}.` }, form: values }, 422);
  }
});

dashboardRoutes.post("/dashboard/enrollments", checkOrigin, limitBody, requireSession, makeCodeOnce, async (c) => {
  const values = codeFormValues(c);
  const optional = (value: string | undefined) => (value === "" || value === undefined ? undefined : number(value));
  try {
    const code = await enrollmentsFor(c.get("services")).create(
      {
        agent_id: values.agent_id === undefined || values.agent_id === "" ? undefined : number(values.agent_id),
        mode: values.mode,
        scopes: values.scopes,
        expires_in: optional(values.expires_in),
        key_expires_in: optional(values.key_expires_in),
        name: values.name === undefined || values.name.trim() === "" ? undefined : values.name,
      },
      dashboardActor(c),
    );
    const link = `${new URL(c.req.url).origin}/enroll#${code.code}`;
    return renderEnrollments(c, { made: { code, link } });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    return renderEnrollments(c, { error: { message: `${NOT_MADE_CODE}: ${err.description}.` }, form: values }, 422);
  }
});

dashboardRoutes.post("/dashboard/enrollments/:id/revoke", checkOrigin, limitBody, requireSession, async (c) => {
  const id = c.req.param("id");
  try {
    const revoked = await enrollmentsFor(c.get("services")).revoke(id, dashboardActor(c));
    if (!revoked)
      return renderEnrollments(c, { error: { message: "No such enrollment code: nothing was revoked." } }, 404);
    return c.redirect(`/dashboard/enrollments?revoked=${encodeURIComponent(revoked.id)}`, 303);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    return renderEnrollments(c, { error: { message: `The code was not revoked: ${err.description}.` } }, 409);
  }
});

async function enrollmentNoticeOf(c: DashContext): Promise<string | undefined> {
  const sent = alreadySentNotice(c, "A new enrollment code", "if it was not used, revoke it and make another.");
  if (sent) return sent;
  const id = c.req.query("revoked");
  const code = id === undefined ? null : await enrollmentsFor(c.get("services")).get(id);
  return code?.status === "revoked" ? `Enrollment code ${code.id} (“${code.name}”) is revoked.` : undefined;
}

/** Codes on one page of the enrollment codes list: a page reads this many rows (and one more). */
export const CODES_PAGE_SIZE = 50;

async function renderEnrollments(
  c: DashContext,
  extra: Partial<EnrollmentsPageProps> = {},
  status: 200 | 404 | 409 | 422 = 200,
): Promise<Response> {
  const before = c.req.query("before") ?? null;
  const [{ codes, older }, base] = await Promise.all([
    enrollmentsFor(c.get("services")).listPage(before, CODES_PAGE_SIZE),
    formPageBase(c, c.get("session")),
  ]);
  const { agents, picker } = await agentsShown(
    c.get("services").db,
    codes.map((code) => code.agent_id),
    extra,
  );
  const pages = { older, newer: before !== null };
  const mode = c.env.MODE === "live" ? "live" : "test";
  return c.html(
    <EnrollmentsPage {...base} codes={codes} pages={pages} agents={agents} mode={mode} {...extra} picker={picker} />,
    status,
  );
}

/** What every page of forms carries: the CSP nonce, the session's CSRF token and a one-time form token. */
async function formPageBase(c: DashContext, session: Session) {
  const formToken = await issueFormToken(c.get("services").primaryDb, session.id);
  return { nonce: nonceOf(c), csrfToken: session.csrfToken, formToken };
}

/** The agents named in a table, and the one a refused form had chosen (kept as the picker's choice). */
async function agentsShown(
  db: Database,
  ids: number[],
  extra: { form?: { agent_id?: string }; picker?: KeysPageProps["picker"] },
): Promise<{ agents: Map<number, AdminAgent>; picker: KeysPageProps["picker"] }> {
  const chosen = Number(extra.form?.agent_id);
  const agents = await agentsByIds(db, Number.isSafeInteger(chosen) && chosen > 0 ? [...ids, chosen] : ids);
  const picker = extra.picker ?? {
    agents: agents.has(chosen) ? [agents.get(chosen)!] : [],
    focusFirst: false,
    limit: AGENT_SEARCH_LIMIT,
  };
  return { agents, picker };
}

/** When the address says a one-time form was sent again: that nothing changed, and that `shown` is shown once. */
function alreadySentNotice(c: DashContext, shown: string, ifLost: string): string | undefined {
  if (c.req.query("notice") !== ALREADY_SENT) return undefined;
  return (
    "That form had already been sent, so it was not sent again: nothing changed. " +
    `${shown} is shown only once, in the answer to the form that made it; ${ifLost}`
  );
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

function pendingNotice(copyPending: boolean): string | undefined {
  if (!copyPending) return undefined;
  return (
    "The change is saved, but the copy that authentication reads could not be written yet: until it is, " +
    "authentication may still treat the key as it did before the change. It is written again within " +
    `${COPY_JOB_INTERVAL_SECONDS / 60} minutes (in production, plus up to ${KV_PROPAGATION_SECONDS} seconds of KV's propagation); ` +
    "revoking a key writes its copy again at once."
  );
}

async function renderKeys(
  c: DashContext,
  session: Session,
  extra: Partial<KeysPageProps> = {},
  status: 200 | 404 | 409 | 422 = 200,
  listing: { filters: KeyListFilters; before: string | null } = { filters: {}, before: null },
): Promise<Response> {
  const { keys: store, db } = c.get("services");
  const [list, entries, base, { picker }] = await Promise.all([
    listKeyPage(store, listing.filters, listing.before),
    store.audit(DEFAULT_AUDIT_LIMIT),
    formPageBase(c, session),
    agentsShown(db, [], extra),
  ]);
  const mode = c.env.MODE === "live" ? "live" : "test";
  return c.html(
    <KeysPage
      {...base}
      mode={mode}
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
async function withErrorsShown(
  c: DashContext,
  what: string,
  form: KeysPageProps["form"],
  work: () => Promise<Response>,
): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 409 && err.status !== 422)) throw err;
    return renderKeys(
      c,
      c.get("session"),
      { error: { message: `${what}: ${err.description}.`, fields: err.options.fields }, form },
      err.status,
    );
  }
}

function outOfDate(c: DashContext, what: string, form?: KeysPageProps["form"]): Promise<Response> {
  return renderKeys(c, c.get("session"), { error: { message: outOfDateMessage(what) }, form }, 409);
}

function outOfDateMessage(what: string): string {
  return (
    `${what}: the form was out of date (a form can be sent for an hour after its page was shown). ` +
    "Nothing was changed; send it again."
  );
}

function lockedOut(c: DashContext, err: ApiError): Response | Promise<Response> {
  const seconds = err.options.headers?.["Retry-After"] ?? "";
  c.header("Retry-After", seconds);
  return c.html(
    <MessagePage
      nonce={nonceOf(c)}
      title="Too many failed sign-ins"
      message={`Too many sign-ins from this address have failed, so this one was not checked. Try again in ${seconds} seconds.`}
    />,
    429,
  );
}

function staleForm(c: DashContext): Response | Promise<Response> {
  return c.html(
    <MessagePage
      nonce={nonceOf(c)}
      title="Form refused"
      message="This form is out of date or was not sent from this dashboard, so nothing was changed. Go back to the dashboard and try again."
    />,
    403,
  );
}

function nonceOf(c: Context): string {
  return (c.get("secureHeadersNonce" as never) as string | undefined) ?? "";
}

function text(value: FormValue | FormValue[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function texts(value: FormValue | FormValue[] | undefined): string[] {
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === "string",
  );
}

/** Form numbers are plain digits; anything else stays text so that validation names the rule. */
function number(value: string): number | string {
  return /^\d{1,15}$/.test(value) ? Number(value) : value;
}
