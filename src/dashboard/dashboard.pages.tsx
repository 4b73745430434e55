// The dashboard's pages, rendered on the server (hono/jsx escapes every value). No external
// resources; the only script is the copy button's, and the page works without it.
import { raw } from "hono/html";
import type { Child, FC, PropsWithChildren } from "hono/jsx";
import type { AdminKey, NewKey } from "../admin/admin.keys.ts";
import type { KeyList } from "../admin/admin.key-list.ts";
import type { FieldError } from "../platform/errors.ts";
import type { AuditEntry } from "../keys/keys.store.ts";
import { SCOPES } from "../keys/keys.rules.ts";
import { AgentChoices, type AgentPickerProps, AgentSearch } from "./dashboard.agent-picker.tsx";
import { AuditPanel } from "./dashboard.audit-panel.tsx";
import { ChoiceSelect, Csrf, FormToken, SPANS } from "./dashboard.form-fields.tsx";
import { KeyListSection } from "./dashboard.key-list.tsx";
import { STYLE } from "./dashboard.style.ts";
import { Time } from "./dashboard.time.tsx";

const SCOPE_HINTS = { read: "read: every GET endpoint", write: "write: create customers" } as const;

/** Expiry choices of a new key: the seconds as the form sends them, "" for never. */
export const EXPIRY_CHOICES = [
  { value: "", label: "never" },
  ...SPANS.map(([seconds, label]) => ({ value: String(seconds), label })),
];

const COPY_SCRIPT = `(() => {
  const button = document.getElementById("copy-secret");
  const input = document.getElementById("new-secret");
  const status = document.getElementById("copy-status");
  if (!button || !input || !status) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      status.textContent = "Copied to the clipboard.";
    } catch {
      status.textContent = "Could not copy automatically: the key is selected, press Ctrl+C to copy it.";
    }
  });
})();`;

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

export interface LoginPageProps {
  nonce: string;
  error?: string;
}

// The same page whatever the configuration: an unusable administrator token is for the log to tell.
export const LoginPage: FC<LoginPageProps> = ({ nonce, error }) => (
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

export interface KeysPageProps {
  nonce: string;
  csrfToken: string;
  /** For the forms whose answer shows a new secret (make, roll). */
  formToken: string;
  mode: "test" | "live";
  list: KeyList;
  audit: { entries: AuditEntry[]; limit: number };
  picker: Omit<AgentPickerProps, "chosen">;
  /** Revocation bounds, in seconds. */
  bounds: { local: number; production: number };
  /** A key just made: its secret is in this page and nowhere else. */
  newKey?: { created: NewKey; replaced?: AdminKey };
  notice?: string;
  error?: { message: string; fields?: FieldError[] };
  /** What the create form held when it failed validation. */
  form?: { name?: string; mode?: string; expires_in?: string; scopes?: string[]; agent_id?: string };
}

/**
 * A page of the signed-in administrator: heading and Log out, then what went wrong or happened, then the page.
 * A page passes its own props in whole; this takes the nonce, CSRF token, error and notice from them.
 */
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

export const KeysPage: FC<KeysPageProps> = (props) => {
  const { nonce, csrfToken, newKey } = props;
  return (
    <SignedInPage
      {...props}
      title="API keys: dashboard"
      heading="API keys"
      tail={newKey && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />}
    >
      {newKey && <NewSecret {...newKey} />}
      <p>
        <a href="/dashboard/enrollments">Enrollment codes for phones</a>: put a key on a field phone without typing a
        secret.
      </p>
      <p class="hint intro">
        This deployment accepts <strong>{props.mode}-mode</strong> keys only. Revoking or rolling a key takes effect
        everywhere within {props.bounds.local} seconds locally (wrangler dev) and within about {props.bounds.production}{" "}
        seconds in production.
      </p>
      <CreateForm {...props} />
      <KeyListSection list={props.list} csrfToken={csrfToken} formToken={props.formToken} />
      <AuditPanel entries={props.audit.entries} limit={props.audit.limit} />
    </SignedInPage>
  );
};

const CreateForm: FC<KeysPageProps> = ({ csrfToken, formToken, form, error, picker, mode }) => {
  const nameError = error?.fields?.find((f) => f.field === "name");
  const otherErrors = error?.fields?.filter((f) => f.field !== "name") ?? [];
  return (
    <section aria-labelledby="create-heading" class="panel">
      <h2 id="create-heading">Make a key</h2>
      <form method="post" action="/dashboard/keys" class="row">
        <Csrf token={csrfToken} />
        <FormToken token={formToken} />
        <AgentSearch query={picker.query} action="/dashboard/keys/agents" />
        <div>
          <label for="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            type="text"
            required
            maxlength={100}
            autocomplete="off"
            value={form?.name ?? ""}
            aria-invalid={nameError ? "true" : undefined}
            aria-describedby={nameError ? "key-name-error" : undefined}
            autofocus={nameError ? true : undefined}
          />
          {nameError && (
            <p id="key-name-error" class="hint">
              Name {nameError.message}
            </p>
          )}
        </div>
        <ModeChoices mode={mode} />
        <ChoiceSelect
          id="key-expiry"
          name="expires_in"
          label="Expires"
          choices={EXPIRY_CHOICES}
          chosen={form?.expires_in ?? ""}
        />
        <ScopeChoices scopes={form?.scopes} />
        <AgentChoices {...picker} chosen={form?.agent_id} />
        <button type="submit">Make key</button>
        {otherErrors.map((f) => (
          <p class="hint">
            {f.field} {f.message}
          </p>
        ))}
      </form>
    </section>
  );
};

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

const NewSecret: FC<{ created: NewKey; replaced?: AdminKey }> = ({ created, replaced }) => (
  <section class="secret" aria-labelledby="new-key-heading">
    <h2 id="new-key-heading">
      New {created.mode}-mode key “{created.name}”: copy it now
    </h2>
    <p>
      This is the only time the secret is shown: it is not stored and cannot be shown again, not even by reloading this
      page (which makes no other key either). Keep it somewhere safe.
    </p>
    {replaced && (
      <p>
        It replaces <code>{replaced.prefix}</code>,{" "}
        {replaced.status === "grace" && replaced.expires_at ? (
          <>
            which keeps working until <Time iso={replaced.expires_at} />.
          </>
        ) : (
          <>which no longer works.</>
        )}
      </p>
    )}
    <label for="new-secret">Secret of the new key</label>
    <div class="row">
      <input
        id="new-secret"
        type="text"
        readonly
        value={created.secret}
        size={60}
        autocomplete="off"
        spellcheck={false}
        autofocus
      />
      <button type="button" id="copy-secret" hidden>
        Copy key
      </button>
    </div>
    <p id="copy-status" role="status" />
  </section>
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
