// Signing in and out with the administrator token (section 2): the session every other page requires.
import { Hono } from "hono";
import type { FC } from "hono/jsx";
import { zValidator } from "@hono/zod-validator";
import { ApiError } from "../platform/errors.ts";
import { signIn, signInAttemptOf } from "../admin/admin.signin-throttle.ts";
import { adminTokenMatches } from "../admin/admin.token.ts";
import { CSRF_FIELD, csrfTokenValid, endSession, readSession, startSession } from "../admin/admin.session.ts";
import { createMiddleware } from "hono/factory";
import { type DashContext, type DashEnv, nonceOf, staleForm } from "./dashboard.guards.tsx";
import { signInForm } from "./dashboard.forms.ts";
import { Layout, MessagePage } from "./dashboard.layout.tsx";

// The same page whatever the configuration: an unusable administrator token is for the log to tell.
export const LoginPage: FC<{ nonce: string; error?: string }> = ({ nonce, error }) => (
  <Layout title="Log in: API key dashboard" nonce={nonce}>
    <main class="login">
      <h1>API key dashboard</h1>
      <form method="post" action="/dashboard/login">
        {error && (
          <p class="alert" role="alert" id="login-error">
            {error}
          </p>
        )}
        <label for="token">Administrator token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="current-password"
          required
          autofocus
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? "login-error" : undefined}
        />
        <button type="submit">Log in</button>
      </form>
    </main>
  </Layout>
);

/** Every form but the sign-in's: the session, and its CSRF token in the form. */
export const requireSession = createMiddleware<DashEnv>(async (c, next) => {
  const session = await readSession(c);
  if (!session) {
    return c.html(
      <LoginPage nonce={nonceOf(c)} error="Your session has ended: log in again. Nothing was changed." />,
      401,
    );
  }
  const given = (await c.req.parseBody({ all: true }))[CSRF_FIELD];
  if (!(await csrfTokenValid(session, typeof given === "string" ? given : null))) return staleForm(c);
  c.set("session", session);
  await next();
});

// A page's GET without a session answers with the sign-in form.
export const pageSession = createMiddleware<DashEnv>(async (c, next) => {
  const session = await readSession(c);
  if (!session) return c.html(<LoginPage nonce={nonceOf(c)} />);
  c.set("session", session);
  await next();
});

export const signInRoutes = new Hono<DashEnv>()
  .post("/dashboard/login", zValidator("form", signInForm), async (c) => {
    const given = c.req.valid("form").token;
    const attempt = signInAttemptOf(c, "dashboard");
    let matched: boolean;
    try {
      matched = await signIn(
        attempt,
        async () => given !== undefined && (await adminTokenMatches(c.env.ADMIN_TOKEN, given, c.var.requestId)),
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
  })
  .post("/dashboard/logout", async (c) => {
    await endSession(c, c.get("session"));
    return c.redirect("/dashboard", 303);
  });

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
