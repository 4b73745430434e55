// The enrollment codes page: a new code shown once as text and as an inline SVG QR code of <base URL>/enroll#<code>
// (the `qr` encoder, docs/decisions.md: no script, no outside request), the list, revoke.
import { encodeQR } from "qr";
import { raw } from "hono/html";
import type { FC } from "hono/jsx";
import type { AdminAgent } from "../admin/admin.salesagents.ts";
import type { EnrollmentCode, NewEnrollmentCode } from "../enroll/enroll.codes.ts";
import { AgentChoices, AgentSearch, agentName } from "./dashboard.agent-picker.tsx";
import type { Picker } from "./dashboard.guards.tsx";
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

// A code lives an hour to 7 days; the key it makes, 30 days or more, or forever.
const CODE_LIFE_CHOICES = SPANS.slice(0, 3).map(([seconds, label]) => ({
  value: String(seconds),
  label: label.replace(/^in /, ""),
}));
const KEY_LIFE_CHOICES = [
  { value: "", label: "never" },
  ...SPANS.slice(3).map(([seconds, label]) => ({ value: String(seconds), label })),
];

const CODE_LIFE = { id: "code-life", name: "expires_in", label: "Code can be used for", choices: CODE_LIFE_CHOICES };
const KEY_LIFE = { id: "key-life", name: "key_expires_in", label: "Key expires", choices: KEY_LIFE_CHOICES };

export interface EnrollmentsPageProps {
  nonce: string;
  csrfToken: string;
  formToken: string;
  codes: EnrollmentCode[];
  /** The id that the next (older) page starts after, or null; whether this is a later page than the first. */
  pages: { older: string | null; newer: boolean };
  agents: Map<number, AdminAgent>;
  /** The deployment's mode: the only one its codes are offered in. */
  mode: "test" | "live";
  picker: Picker;
  /** A code just made, and the link its QR code carries: in this page and nowhere else. */
  made?: { code: NewEnrollmentCode; link: string };
  notice?: string;
  error?: { message: string };
  form?: {
    agent_id?: string;
    mode?: string;
    scopes?: string[];
    expires_in?: string;
    key_expires_in?: string;
    name?: string;
  };
}

/** The encoder's SVG (numbers only), made an image with a name for assistive technology. */
export function qrSvg(text: string, label: string): string {
  const svg = encodeQR(text, "svg", { ecc: "medium", border: 4 });
  const escaped = label.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return svg.replace("<svg ", `<svg class="qr" role="img" aria-label="${escaped}" `);
}

export const EnrollmentsPage: FC<EnrollmentsPageProps> = (props) => {
  const { csrfToken, made } = props;
  return (
    <SignedInPage {...props} title="Enrollment codes: dashboard" heading="Enrollment codes">
      <p>
        <a href="/dashboard">Back to the API keys</a>
      </p>
      {made && <NewCode {...made} agents={props.agents} />}
      <p class="hint intro">
        An enrollment code puts a key on a field phone without anyone typing a secret: the phone's app scans the QR code
        (or takes the code typed in) and exchanges it once for a key bound to the code's sales agent.
      </p>
      <MakeForm {...props} />
      <CodesTable codes={props.codes} agents={props.agents} csrfToken={csrfToken} />
      <CodePages {...props.pages} />
    </SignedInPage>
  );
};

const NewCode: FC<{ code: NewEnrollmentCode; link: string; agents: Map<number, AdminAgent> }> = ({
  code,
  link,
  agents,
}) => {
  const agent = agents.get(code.agent_id);
  return (
    <section class="secret" aria-labelledby="new-code-heading">
      <h2 id="new-code-heading">New enrollment code for {agent ? agentName(agent) : `agent #${code.agent_id}`}</h2>
      <p>
        Scan the QR code with the field app, or type the code in it. It is shown only this once (reloading this page
        does not show it again) and can be exchanged once, until <Time iso={code.expires_at} />.
      </p>
      <p class="code" id="new-code">
        {code.code}
      </p>
      {raw(qrSvg(link, `QR code of the enrollment link for ${code.name}`))}
      <p class="hint">
        The QR code holds the link <code>{link}</code>
      </p>
    </section>
  );
};

const MakeForm: FC<EnrollmentsPageProps> = ({ csrfToken, formToken, form, picker, mode }) => {
  return (
    <section aria-labelledby="make-code-heading" class="panel">
      <h2 id="make-code-heading">Make an enrollment code</h2>
      <form method="post" action="/dashboard/enrollments" class="row">
        <Csrf token={csrfToken} />
        <FormToken token={formToken} />
        <AgentSearch query={picker.query} action="/dashboard/enrollments/agents" />
        <AgentChoices {...picker} chosen={form?.agent_id} required />
        <ModeChoices mode={mode} />
        <ScopeChoices scopes={form?.scopes} />
        <ChoiceSelect {...CODE_LIFE} chosen={form?.expires_in ?? "86400"} />
        <ChoiceSelect {...KEY_LIFE} chosen={form?.key_expires_in ?? ""} />
        <div>
          <label for="code-name">Key name (optional)</label>
          <input id="code-name" name="name" type="text" maxlength={100} autocomplete="off" value={form?.name ?? ""} />
        </div>
        <button type="submit">Make code</button>
      </form>
    </section>
  );
};

const CodesTable: FC<{ codes: EnrollmentCode[]; agents: Map<number, AdminAgent>; csrfToken: string }> = ({
  codes,
  agents,
  csrfToken,
}) => (
  <section aria-labelledby="codes-heading">
    <h2 id="codes-heading">Codes</h2>
    {codes.length === 0 ? (
      <p>No enrollment codes yet.</p>
    ) : (
      <div class="table-wrap" tabindex={0} role="region" aria-label="Enrollment codes table">
        <table>
          <caption>Enrollment codes, newest first. A code itself is never kept, only its hash.</caption>
          <thead>
            <tr>
              <th scope="col">Key name</th>
              <th scope="col">Agent</th>
              <th scope="col">Mode</th>
              <th scope="col">Scopes</th>
              <th scope="col">Made</th>
              <th scope="col">Usable until</th>
              <th scope="col">Status</th>
              <th scope="col">Key made</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => {
              const agent = agents.get(code.agent_id);
              return (
                <tr>
                  <th scope="row">
                    {code.name}
                    <br />
                    <span class="hint">{code.id}</span>
                  </th>
                  <td data-label="Agent">
                    {agent ? agentName(agent) : "unknown agent"}
                    <br />
                    <span class="hint">#{code.agent_id}</span>
                  </td>
                  <td data-label="Mode">{code.mode}</td>
                  <td data-label="Scopes">{code.scopes.join(", ")}</td>
                  <td data-label="Made">
                    <Time iso={code.created_at} />
                  </td>
                  <td data-label="Usable until">
                    <Time iso={code.expires_at} />
                  </td>
                  <td data-label="Status">
                    <span class={`status status-${code.status}`}>{code.status}</span>
                  </td>
                  <td data-label="Key made">{code.key_id ? <code>{code.key_id}</code> : "–"}</td>
                  <td data-label="Actions">
                    {code.status === "pending" && (
                      <form method="post" action={`/dashboard/enrollments/${code.id}/revoke`}>
                        <Csrf token={csrfToken} />
                        <button type="submit" class="danger">
                          Revoke<span class="vh"> code {code.id}</span>
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    )}
  </section>
);

const CodePages: FC<EnrollmentsPageProps["pages"]> = ({ older, newer }) =>
  older !== null || newer ? (
    <nav aria-label="Pages of enrollment codes" class="row">
      {newer && <a href="/dashboard/enrollments">Newest codes</a>}
      {older !== null && <a href={`/dashboard/enrollments?before=${encodeURIComponent(older)}`}>Older codes</a>}
    </nav>
  ) : null;
