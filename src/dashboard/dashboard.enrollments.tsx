// The enrollment codes' page and its forms (section 9): list, make (shown once, with a QR code), revoke.
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { ApiError } from "../platform/errors.ts";
import { enrollmentsFor } from "../enroll/enroll.codes.ts";
import { codeForm, optionalNumber } from "./dashboard.forms.ts";
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
import { type EnrollmentsPageProps, EnrollmentsPage } from "./dashboard.enrollments.view.tsx";
import { pageSession } from "./dashboard.signin.tsx";

/** Codes on one page of the enrollment codes list: a page reads this many rows (and one more). */
export const CODES_PAGE_SIZE = 50;
const NOT_MADE_CODE = "The enrollment code was not made";

const makeCodeOnce = oneTimeForm(
  async (c) =>
    renderEnrollments(
      c,
      {
        error: { message: outOfDateMessage(NOT_MADE_CODE) },
        form: codeForm.parse(await c.req.parseBody({ all: true })),
      },
      409,
    ),
  "/dashboard/enrollments",
);

/** Runs a change; a refusal with one of `statuses` is shown on the page as `what` and the rule's words. */
async function shown(
  c: DashContext,
  what: string,
  statuses: number[],
  extra: Partial<EnrollmentsPageProps>,
  work: () => Promise<Response>,
): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError) || !statuses.includes(err.status)) throw err;
    return renderEnrollments(c, { error: { message: `${what}: ${err.description}.` }, ...extra }, err.status as 409);
  }
}

export const enrollmentRoutes = new Hono<DashEnv>()
  .get("/dashboard/enrollments", pageSession, async (c) => {
    const query = c.req.query("agent_q");
    if (query === undefined) return renderEnrollments(c, { notice: await noticeOf(c) });
    return shown(c, NOT_SEARCHED, [422], {}, async () =>
      renderEnrollments(c, { picker: await searchedPicker(c, query) }),
    );
  })
  .post("/dashboard/enrollments/agents", zValidator("form", codeForm), async (c) => {
    const form = c.req.valid("form");
    return shown(c, NOT_SEARCHED, [422], { form }, async () =>
      renderEnrollments(c, { picker: await searchedPicker(c, form.agent_q ?? ""), form }),
    );
  })
  .post("/dashboard/enrollments", makeCodeOnce, zValidator("form", codeForm), async (c) => {
    const form = c.req.valid("form");
    return shown(c, NOT_MADE_CODE, [422], { form }, async () => {
      const code = await enrollmentsFor(c.get("services")).create(
        {
          agent_id: optionalNumber(form.agent_id, undefined),
          mode: form.mode,
          scopes: form.scopes,
          expires_in: optionalNumber(form.expires_in, undefined),
          key_expires_in: optionalNumber(form.key_expires_in, undefined),
          name: form.name === undefined || form.name.trim() === "" ? undefined : form.name,
        },
        dashboardActor(c),
      );
      const link = `${new URL(c.req.url).origin}/enroll#${code.code}`;
      return renderEnrollments(c, { made: { code, link } });
    });
  })
  .post("/dashboard/enrollments/:id/revoke", async (c) => {
    return shown(c, "The code was not revoked", [409], {}, async () => {
      const revoked = await enrollmentsFor(c.get("services")).revoke(c.req.param("id"), dashboardActor(c));
      if (!revoked)
        return renderEnrollments(c, { error: { message: "No such enrollment code: nothing was revoked." } }, 404);
      return c.redirect(`/dashboard/enrollments?revoked=${encodeURIComponent(revoked.id)}`, 303);
    });
  });

async function noticeOf(c: DashContext): Promise<string | undefined> {
  const sent = alreadySentNotice(c, "A new enrollment code", "if it was not used, revoke it and make another.");
  if (sent) return sent;
  const id = c.req.query("revoked");
  const code = id === undefined ? null : await enrollmentsFor(c.get("services")).get(id);
  return code?.status === "revoked" ? `Enrollment code ${code.id} (“${code.name}”) is revoked.` : undefined;
}

async function renderEnrollments(
  c: DashContext,
  extra: Partial<EnrollmentsPageProps> = {},
  status: 200 | 404 | 409 | 422 = 200,
): Promise<Response> {
  const before = c.req.query("before") ?? null;
  const [{ codes, older }, base] = await Promise.all([
    enrollmentsFor(c.get("services")).listPage(before, CODES_PAGE_SIZE),
    formPageBase(c),
  ]);
  const ids = codes.map((code) => code.agent_id);
  const { agents, picker } = await agentsShown(c.get("services").db, ids, extra);
  const pages = { older, newer: before !== null };
  return c.html(
    <EnrollmentsPage
      {...base}
      codes={codes}
      pages={pages}
      agents={agents}
      mode={modeOf(c)}
      {...extra}
      picker={picker}
    />,
    status,
  );
}
