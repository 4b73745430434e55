// The dashboard's pages, rendered on the server (hono/jsx escapes every value). No external
// resources; the only script is the copy button's, and the page works without it.
import { raw } from "hono/html";
import type { Child, FC, PropsWithChildren } from "hono/jsx";
import type { AdminKey, AdminKeyWithUsage, NewKey } from "../admin/admin.keys.ts";
import type { AdminAgent } from "../admin/admin.salesagents.ts";
import type { FieldError } from "../platform/errors.ts";
import { type AuditEntry, COPY_JOB_INTERVAL_SECONDS, DEFAULT_GRACE_SECONDS } from "../keys/keys.store.ts";
import { SCOPES } from "../keys/keys.scopes.ts";
import { CSRF_FIELD } from "../admin/admin.session.ts";
import { FORM_TOKEN_FIELD } from "../admin/admin.form-tokens.ts";
import { AgentChoices, type AgentPickerProps, AgentSearch, agentName } from "./dashboard.agent-picker.tsx";
import { AuditPanel } from "./dashboard.audit-panel.tsx";
import { STYLE } from "./dashboard.style.ts";
import { Time } from "./dashboard.time.tsx";
import { UsageChart } from "./dashboard.usage-chart.tsx";

const SCOPE_HINTS = { read: "read: every GET endpoint", write: "write: create customers" } as const;

/** Grace choices offered when rolling (seconds the old key keeps working). */
export const GRACE_CHOICES = [
  { seconds: 0, label: "now" },
  { seconds: 3_600, label: "in 1 hour" },
  { seconds: 86_400, label: "in 24 hours" },
  { seconds: 604_800, label: "in 7 days" },
] as const;

export const EXPIRY_CHOICES = [
  { value: "", label: "never" },
  { value: "3600", label: "in 1 hour" },
  { value: "86400", label: "in 24 hours" },
  { value: "604800", label: "in 7 days" },
  { value: "2592000", label: "in 30 days" },
  { value: "7776000", label: "in 90 days" },
  { value: "31536000", label: "in 1 year" },
] as const;

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
  keys: AdminKeyWithUsage[];
  /** An agent that no longer exists is absent. */
  keyAgents: Map<number, AdminAgent>;
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

/** A page of the signed-in administrator: heading and Log out, then what went wrong or happened, then the page. */
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
  const { nonce, csrfToken, keys, newKey, notice, error } = props;
  return (
    <SignedInPage
      title="API keys: dashboard"
      heading="API keys"
      nonce={nonce}
      csrfToken={csrfToken}
      error={error}
      notice={notice}
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
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        {keys.length === 0 ? (
          <p>No keys yet.</p>
        ) : (
          // Focusable, so that a keyboard can scroll the table sideways on a narrow screen.
          <div class="table-wrap" tabindex={0} role="region" aria-label="Keys table">
            <table>
              <caption>
                Keys of both modes, newest first. Only a prefix of each key is kept for display. Requests are counted
                per key (within about a minute of their use), over the last 24 hours, 7 days and per day for 30 days.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last used</th>
                  <th scope="col">24 h</th>
                  <th scope="col">7 days</th>
                  <th scope="col">Per day, 30 days</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {[...keys].reverse().map((key) => (
                  <KeyRow item={key} agents={props.keyAgents} csrfToken={csrfToken} formToken={props.formToken} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <AuditPanel entries={props.audit.entries} limit={props.audit.limit} />
    </SignedInPage>
  );
};

export const Csrf: FC<{ token: string }> = ({ token }) => <input type="hidden" name={CSRF_FIELD} value={token} />;
export const FormToken: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
);

const CreateForm: FC<KeysPageProps> = ({ csrfToken, formToken, form, error, picker }) => {
  const nameError = error?.fields?.find((f) => f.field === "name");
  const otherErrors = error?.fields?.filter((f) => f.field !== "name") ?? [];
  const mode = form?.mode === "live" ? "live" : "test";
  return (
    <section aria-labelledby="create-heading" class="panel">
      <h2 id="create-heading">Make a key</h2>
      <AgentSearch query={picker.query} />
      <form method="post" action="/dashboard/keys" class="row">
        <Csrf token={csrfToken} />
        <FormToken token={formToken} />
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
        <div>
          <label for="key-expiry">Expires</label>
          <select id="key-expiry" name="expires_in">
            {EXPIRY_CHOICES.map((choice) => (
              <option value={choice.value} selected={(form?.expires_in ?? "") === choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
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

export const ModeChoices: FC<{ mode: "test" | "live" }> = ({ mode }) => (
  <fieldset>
    <legend>Mode</legend>
    <div class="choices">
      <label class="choice">
        <input type="radio" name="mode" value="test" checked={mode === "test"} /> test
      </label>
      <label class="choice">
        <input type="radio" name="mode" value="live" checked={mode === "live"} /> live
      </label>
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

const KeyRow: FC<{
  item: AdminKeyWithUsage;
  agents: Map<number, AdminAgent>;
  csrfToken: string;
  formToken: string;
}> = ({ item, agents, csrfToken, formToken }) => {
  const which = `${item.name} (${item.prefix})`;
  const agent = item.agent_id === null ? undefined : agents.get(item.agent_id);
  return (
    <tr>
      <th scope="row">{item.name}</th>
      <td>{item.mode}</td>
      <td>
        <code>{item.prefix}</code>
        <br />
        <span class="hint">{item.id}</span>
      </td>
      <td>{item.scopes.join(", ")}</td>
      <td>
        {item.agent_id === null ? (
          "every customer"
        ) : (
          <>
            {agent ? agentName(agent) : "unknown agent"}
            <br />
            <span class="hint">#{item.agent_id}</span>
          </>
        )}
      </td>
      <td>
        <Time iso={item.created_at} />
      </td>
      <td>{item.expires_at ? <Time iso={item.expires_at} /> : "never"}</td>
      <td>
        <Status item={item} />
      </td>
      <td>{item.last_used_at ? <Time iso={item.last_used_at} /> : "never"}</td>
      <td class="num">{item.requests_24h}</td>
      <td class="num">{item.requests_7d}</td>
      <td>
        <UsageChart days={item.requests_daily} />
      </td>
      <td>
        <div class="actions">
          {item.status === "active" && (
            <form method="post" action={`/dashboard/keys/${item.id}/roll`}>
              <Csrf token={csrfToken} />
              <FormToken token={formToken} />
              <div>
                <label for={`grace-${item.id}`}>
                  Old key stops<span class="vh"> for {which}</span>
                </label>
                <select id={`grace-${item.id}`} name="grace">
                  {GRACE_CHOICES.map((choice) => (
                    <option value={String(choice.seconds)} selected={choice.seconds === DEFAULT_GRACE_SECONDS}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" class="secondary">
                Roll<span class="vh"> key {which}</span>
              </button>
            </form>
          )}
          {(item.status === "active" || item.status === "grace" || item.copy_pending) && (
            <form method="post" action={`/dashboard/keys/${item.id}/revoke`}>
              <Csrf token={csrfToken} />
              <button type="submit" class="danger">
                Revoke<span class="vh"> key {which}</span>
              </button>
            </form>
          )}
        </div>
      </td>
    </tr>
  );
};

const Status: FC<{ item: AdminKey }> = ({ item }) => {
  const words: Record<AdminKey["status"], string> = {
    active: "active",
    grace: "expiring",
    expired: "expired",
    revoked: "revoked",
  };
  let detail: Child = null;
  if (item.status === "grace" && item.expires_at) {
    detail = (
      <>
        {" "}
        (rolled; works until <Time iso={item.expires_at} />)
      </>
    );
  } else if (item.status === "revoked" && item.revoked_at) {
    detail = (
      <>
        {" "}
        (<Time iso={item.revoked_at} />)
      </>
    );
  }
  return (
    <>
      <span class={`status status-${item.status}`}>{words[item.status]}</span>
      {detail}
      {item.copy_pending && (
        <>
          <br />
          <span class="status status-pending">copy pending</span>{" "}
          <span class="hint">
            (authentication may not see this yet; written again within {COPY_JOB_INTERVAL_SECONDS / 60} minutes)
          </span>
        </>
      )}
    </>
  );
};

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
