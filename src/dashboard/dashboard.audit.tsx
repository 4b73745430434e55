// The key audit log's newest entries; a session id shortened to tell sessions apart, not to be one.
import type { FC } from "hono/jsx";
import type { AuditEntry } from "../keys/keys.store.ts";
import { Time } from "./dashboard.layout.tsx";

export const SESSION_ID_SHOWN = 8;

export function shortSession(id: string | null): string {
  if (id === null) return "–";
  return id.length > SESSION_ID_SHOWN ? `${id.slice(0, SESSION_ID_SHOWN)}…` : id;
}

export const AuditPanel: FC<{ entries: readonly AuditEntry[]; limit: number }> = ({ entries, limit }) => (
  <section aria-labelledby="audit-heading">
    <h2 id="audit-heading">Audit log</h2>
    {entries.length === 0 ? (
      <p>No key has been made, rolled or revoked yet.</p>
    ) : (
      <div class="table-wrap" tabindex={0} role="region" aria-label="Audit log table">
        <table class="audit">
          <caption>The newest {limit} key changes, newest first.</caption>
          <thead>
            <tr>
              <th scope="col">At</th>
              <th scope="col">Action</th>
              <th scope="col">Key</th>
              <th scope="col">New key</th>
              <th scope="col">Enrollment code</th>
              <th scope="col">Name</th>
              <th scope="col">Mode</th>
              <th scope="col">Actor</th>
              <th scope="col">Session</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr>
                <td data-label="At">
                  <Time iso={e.at} />
                </td>
                <td data-label="Action">{e.action}</td>
                <td data-label="Key">{e.key_id ? <code>{e.key_id}</code> : "–"}</td>
                <td data-label="New key">{e.new_key_id ? <code>{e.new_key_id}</code> : "–"}</td>
                <td data-label="Enrollment code">{e.code_id ? <code>{e.code_id}</code> : "–"}</td>
                <td data-label="Name">{e.key_name}</td>
                <td data-label="Mode">{e.mode}</td>
                <td data-label="Actor">{e.actor}</td>
                <td data-label="Session">{e.session_id ? <code>{shortSession(e.session_id)}</code> : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
);
