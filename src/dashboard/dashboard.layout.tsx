// What every page shares, rendered on the server (hono/jsx escapes values), with no external resources.
import { raw } from "hono/html";
import type { Child, FC, PropsWithChildren } from "hono/jsx";
import { CSRF_FIELD } from "../admin/admin.session.ts";
import { SCOPES } from "../keys/keys.rules.ts";
import { FORM_TOKEN_FIELD } from "./dashboard.form-tokens.ts";
import { STYLE } from "./dashboard.style.ts";

export const Layout: FC<PropsWithChildren<{ title: string; nonce: string }>> = ({ title, nonce, children }) => (
  <>
    {raw("<!doctype html>")}
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>{children}</body>
    </html>
  </>
);

export const MessagePage: FC<{ nonce: string; title: string; message: string }> = ({ nonce, title, message }) => (
  <Layout title={`${title}: API key dashboard`} nonce={nonce}>
    <main class="login">
      <h1>{title}</h1>
      <p role="alert">{message}</p>
      <p>
        <a href="/dashboard">Back to the dashboard</a>
      </p>
    </main>
  </Layout>
);

/** A signed-in page: heading and Log out, the error or notice, then the page (nonce and token from its props). */
export const SignedInPage: FC<
  PropsWithChildren<{
    title: string;
    heading: string;
    nonce: string;
    csrfToken: string;
    error?: { message: string };
    notice?: string;
    /** After main: a page's script. */
    tail?: Child;
  }>
> = ({ title, heading, nonce, csrfToken, error, notice, tail, children }) => (
  <Layout title={title} nonce={nonce}>
    <header class="top">
      <h1>{heading}</h1>
      <form method="post" action="/dashboard/logout">
        <Csrf token={csrfToken} />
        <button type="submit" class="secondary">
          Log out
        </button>
      </form>
    </header>
    <main>
      {error && (
        <div class="alert" role="alert">
          <p>{error.message}</p>
        </div>
      )}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {children}
    </main>
    {tail}
  </Layout>
);

/** A UTC time as the dashboard shows it: to the minute, machine-readable in datetime. */
export const Time: FC<{ iso: string }> = ({ iso }) => (
  <time datetime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}</time>
);

/** The session's CSRF token, which every form carries. */
export const Csrf: FC<{ token: string }> = ({ token }) => <input type="hidden" name={CSRF_FIELD} value={token} />;
/** The page's one-time form token, on the forms that must not repeat. */
export const FormToken: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
);

/** The spans the dashboard offers, in seconds, as its choices say them. */
export const SPANS = [
  [3_600, "in 1 hour"],
  [86_400, "in 24 hours"],
  [604_800, "in 7 days"],
  [2_592_000, "in 30 days"],
  [7_776_000, "in 90 days"],
  [31_536_000, "in 1 year"],
] as const;

/** A labelled select of `choices`, the one whose value is `chosen` selected. */
export const ChoiceSelect: FC<{
  id: string;
  name: string;
  label: string;
  choices: readonly { value: string; label: string }[];
  chosen: string;
}> = ({ id, name, label, choices, chosen }) => (
  <div>
    <label for={id}>{label}</label>
    <select id={id} name={name}>
      {choices.map((choice) => (
        <option value={choice.value} selected={chosen === choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  </div>
);

/** `mode`: the deployment's, the only one offered: a key of the other mode would be refused here. */
export const ModeChoices: FC<{ mode: "test" | "live" }> = ({ mode }) => (
  <fieldset>
    <legend>Mode</legend>
    <div class="choices">
      <label class="choice">
        <input type="radio" name="mode" value={mode} checked /> {mode}
      </label>
      <span class="hint">the only mode this deployment accepts</span>
    </div>
  </fieldset>
);

const SCOPE_HINTS = { read: "read: every GET endpoint", write: "write: create customers" } as const;

/** `scopes`: what a refused form had ticked; absent, both. */
export const ScopeChoices: FC<{ scopes?: string[] }> = ({ scopes }) => (
  <fieldset>
    <legend>Scopes</legend>
    <div class="choices">
      {SCOPES.map((scope) => (
        <label class="choice">
          <input type="checkbox" name="scopes" value={scope} checked={scopes ? scopes.includes(scope) : true} />{" "}
          {SCOPE_HINTS[scope]}
        </label>
      ))}
    </div>
  </fieldset>
);
