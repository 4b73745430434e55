// The pages' server side: context types, the guards in front of every form, one-time forms, shared pieces.
import type { Context } from "hono";
import { csrf } from "hono/csrf";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { SecureHeadersVariables } from "hono/secure-headers";
import type { Bindings, Variables } from "../env.ts";
import type { Database } from "../platform/db/database.ts";
import type { Session } from "../admin/admin.session.ts";
import { type AdminAgent, AGENT_SEARCH_LIMIT, agentsByIds, findAgents } from "../admin/admin.salesagents.ts";
import type { AgentPickerProps } from "./dashboard.agent-picker.tsx";
import { FORM_TOKEN_FIELD, issueFormToken, useFormToken } from "./dashboard.form-tokens.ts";
import { MessagePage } from "./dashboard.layout.tsx";

export type DashEnv = {
  Bindings: Bindings;
  Variables: Variables & SecureHeadersVariables & { session: Session };
};
export type DashContext = Context<DashEnv>;
export type Picker = Omit<AgentPickerProps, "chosen">;

export const ALREADY_SENT = "already-sent";
export const NOT_SEARCHED = "The agents were not searched";

/** Who made a change, for the key audit log. */
export const dashboardActor = (c: DashContext) => ({ actor: "dashboard", sessionId: c.get("session").id }) as const;

export function nonceOf(c: Context): string {
  return (c.get("secureHeadersNonce" as never) as string | undefined) ?? "";
}

export const modeOf = (c: DashContext): "test" | "live" => (c.env.MODE === "live" ? "live" : "test");

export function staleForm(c: Context): Response | Promise<Response> {
  return c.html(
    <MessagePage
      nonce={nonceOf(c)}
      title="Form refused"
      message="This form is out of date or was not sent from this dashboard, so nothing was changed. Go back to the dashboard and try again."
    />,
    403,
  );
}

/** hono/csrf's check, answered with a page instead of a bare 403. */
const sameOrigin = csrf();
export const checkOrigin = createMiddleware(async (c, next) => {
  try {
    await sameOrigin(c, async () => {});
  } catch (err) {
    if (err instanceof HTTPException && err.status === 403) return staleForm(c);
    throw err;
  }
  await next();
});

/** Forms whose answer shows a secret: `stale` shows the form again, a resent form 303s to `list`. */
export function oneTimeForm(stale: (c: DashContext) => Promise<Response>, list = "/dashboard") {
  return createMiddleware<DashEnv>(async (c, next) => {
    const token = (await c.req.parseBody({ all: true }))[FORM_TOKEN_FIELD];
    const use = await useFormToken(c.get("services").primaryDb, {
      token: typeof token === "string" ? token : undefined,
      sessionId: c.get("session").id,
      form: c.req.path,
    });
    if (use === "used") return c.redirect(`${list}?notice=${ALREADY_SENT}`, 303);
    if (use === "foreign") return staleForm(c);
    if (use === "stale") return stale(c);
    await next();
  });
}

export function outOfDateMessage(what: string): string {
  return (
    `${what}: the form was out of date (a form can be sent for an hour after its page was shown). ` +
    "Nothing was changed; send it again."
  );
}

/** When the address says a one-time form was sent again: that nothing changed, and that `shown` is shown once. */
export function alreadySentNotice(c: DashContext, shown: string, ifLost: string): string | undefined {
  if (c.req.query("notice") !== ALREADY_SENT) return undefined;
  return (
    "That form had already been sent, so it was not sent again: nothing changed. " +
    `${shown} is shown only once, in the answer to the form that made it; ${ifLost}`
  );
}

/** What every page of forms carries: the CSP nonce, the session's CSRF token and a one-time form token. */
export async function formPageBase(c: DashContext) {
  const session = c.get("session");
  const formToken = await issueFormToken(c.get("services").primaryDb, session.id);
  return { nonce: nonceOf(c), csrfToken: session.csrfToken, formToken };
}

// An agent search (the picker's GET form or its button): its matches become the form's choices.
export async function searchedPicker(c: DashContext, query: string): Promise<Picker> {
  const agents = await findAgents(c.get("services").db, query);
  return { query, agents, focusFirst: agents.length > 0, limit: AGENT_SEARCH_LIMIT };
}

/** The agents named in a table, and the one a refused form had chosen (kept as the picker's choice). */
export async function agentsShown(
  db: Database,
  ids: number[],
  extra: { form?: { agent_id?: string }; picker?: Picker },
): Promise<{ agents: Map<number, AdminAgent>; picker: Picker }> {
  const chosen = Number(extra.form?.agent_id);
  const agents = await agentsByIds(db, Number.isSafeInteger(chosen) && chosen > 0 ? [...ids, chosen] : ids);
  const picker = extra.picker ?? {
    agents: agents.has(chosen) ? [agents.get(chosen)!] : [],
    focusFirst: false,
    limit: AGENT_SEARCH_LIMIT,
  };
  return { agents, picker };
}
