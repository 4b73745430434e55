// The key list's page: make-key form, a new secret shown once, the list, the audit log; works without its one script.
import type { FC } from "hono/jsx";
import type { AdminKey, NewKey } from "../admin/admin.keys.ts";
import type { FieldError } from "../platform/errors.ts";
import type { AuditEntry } from "../keys/keys.store.ts";
import { AgentChoices, AgentSearch } from "./dashboard.agent-picker.tsx";
import { AuditPanel } from "./dashboard.audit.tsx";
import type { Picker } from "./dashboard.guards.tsx";
import type { KeyList } from "./dashboard.key-list.query.ts";
import { KeyListSection } from "./dashboard.key-list.tsx";
import {
  ChoiceSelect,
  Csrf,
  FormToken,
  ModeChoices,
  ScopeChoices,
  SignedInPage,
  SPANS,
  Time,
} from "./dashboard.layout.tsx";

/** Expiry choices of a new key: the seconds as the form sends them, "" for never. */
const EXPIRY_CHOICES = [
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

export interface KeysPageProps {
  nonce: string;
  csrfToken: string;
  /** For the forms whose answer shows a new secret (make, roll). */
  formToken: string;
  mode: "test" | "live";
  list: KeyList;
  audit: { entries: AuditEntry[]; limit: number };
  picker: Picker;
  /** Revocation bounds, in seconds. */
  bounds: { local: number; production: number };
  /** A key just made: its secret is in this page and nowhere else. */
  newKey?: { created: NewKey; replaced?: AdminKey };
  notice?: string;
  error?: { message: string; fields?: FieldError[] };
  /** What the create form held when it failed validation. */
  form?: { name?: string; mode?: string; expires_in?: string; scopes?: string[]; agent_id?: string };
}

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
