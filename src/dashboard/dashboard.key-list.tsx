// The fleet's key list (section 9): filters in the address (reload, Back and bookmarks agree), kept counts, rotation
// progress, a page of rows fitting 1280 px, its links and the rotation form.
import type { FC } from "hono/jsx";
import { KEY_STATES, ROTATION_STATES } from "../keys/keys.store.ts";
import type { KeyListAgent } from "../keys/keys.store.ts";
import { KEY_MODES } from "../keys/keys.secret.ts";
import { type KeyList, listHref } from "./dashboard.key-list.query.ts";
import { KeyRow, ROTATION_FORM_ID, ROTATION_WORDS, STATUS_WORDS } from "./dashboard.key-row.tsx";
import { Csrf, FormToken } from "./dashboard.layout.tsx";

const agentLabel = (a: KeyListAgent) =>
  a.first_name === null ? `#${a.id} (no longer a sales agent)` : `${a.first_name} ${a.last_name} (#${a.id})`;

export interface KeyListProps {
  list: KeyList;
  csrfToken: string;
  formToken: string;
}

export const KeyListSection: FC<KeyListProps> = ({ list, csrfToken, formToken }) => {
  const agents = new Map(list.agents.map((a) => [a.id, a]));
  const { filters } = list;
  const filtered = Object.values(filters).some((v) => v !== undefined);
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">Keys</h2>
      <Counts list={list} />
      <Filters list={list} />
      {list.counts.keys > 0 && <RotationForm list={list} csrfToken={csrfToken} formToken={formToken} />}
      {list.counts.keys === 0 && !filtered ? (
        <p>No keys yet.</p>
      ) : list.keys.length === 0 && list.before === null ? (
        <p>No key matches these filters.</p>
      ) : list.keys.length === 0 ? (
        <p>
          No older key matches these filters. <a href={listHref(filters)}>Newest keys</a>
        </p>
      ) : (
        <>
          <div class="table-wrap" tabindex={0} role="region" aria-label="Keys table">
            <table class="keys">
              <caption>
                Keys{list.before === null ? "" : " older than the previous page's"}, newest first, {list.pageSize} a
                page. Only a prefix of each key is kept for display. Requests are counted per key (within about a minute
                of their use), over the last 24 hours, 7 days and per day for 30 days.
              </caption>
              <colgroup>
                <col class="c-select" />
                <col class="c-name" />
                <col class="c-key" />
                <col class="c-agent" />
                <col class="c-access" />
                <col class="c-status" />
                <col class="c-used" />
                <col class="c-requests" />
                <col class="c-actions" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">
                    <span class="vh">Select</span>
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Mode and scopes</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.keys.map((key) => (
                  <KeyRow item={key} agents={agents} csrfToken={csrfToken} formToken={formToken} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager list={list} />
        </>
      )}
    </section>
  );
};

/** The whole fleet's counts, whatever the filters (they are kept as the keys change). */
const Counts: FC<{ list: KeyList }> = ({ list: { counts } }) => {
  const late = counts.usedAfterSuccessor;
  return (
    <>
      <p class="counts" id="key-counts">
        {counts.keys} {counts.keys === 1 ? "key" : "keys"} in all.
      </p>
      <p class="counts" id="rotation-progress">
        Rotation: {counts.rotation_due} due, {counts.rotation_rotated} rotated, {counts.rotation_rolled} rolled instead.
        {late > 0 && (
          <>
            {" "}
            <span class="status status-warn">
              {late} old {late === 1 ? "key was" : "keys were"} used after {late === 1 ? "its" : "their"} successor
            </span>
          </>
        )}
      </p>
    </>
  );
};

const Filters: FC<{ list: KeyList }> = ({ list }) => {
  const { filters, counts } = list;
  const sorted = [...list.agents].sort((a, b) => agentLabel(a).localeCompare(agentLabel(b)));
  return (
    <form method="get" action="/dashboard" class="row filters" role="search" aria-label="Filter the keys">
      <div>
        <label for="filter-name">Name contains</label>
        <input
          id="filter-name"
          name="name"
          type="search"
          maxlength={100}
          autocomplete="off"
          value={filters.name ?? ""}
        />
      </div>
      <FilterChoice
        name="agent"
        label="Agent"
        value={filters.agent === undefined ? "" : String(filters.agent)}
        options={[
          ["none", "no agent (every customer)"],
          ...sorted.map((a): [string, string] => [String(a.id), agentLabel(a)]),
        ]}
      />
      <FilterChoice name="mode" label="Mode" value={filters.mode ?? ""} options={KEY_MODES.map((m) => [m, m])} />
      <FilterChoice
        name="status"
        label="Status"
        value={filters.status ?? ""}
        options={KEY_STATES.map((s) => [s, STATUS_WORDS[s]])}
      />
      <FilterChoice
        name="rotation"
        label="Rotation"
        value={filters.rotation ?? ""}
        options={ROTATION_STATES.map((r) => [r, `${ROTATION_WORDS[r]} (${counts[`rotation_${r}`]})`])}
      />
      <button type="submit" class="secondary">
        Show keys
      </button>
      <a href="/dashboard" class="clear">
        Clear the filters
      </a>
    </form>
  );
};

/** One filter's select: "any" (no filter, the empty value) and its choices, as [value, text]. */
const FilterChoice: FC<{ name: string; label: string; value: string; options: [string, string][] }> = (props) => (
  <div>
    <label for={`filter-${props.name}`}>{props.label}</label>
    <select id={`filter-${props.name}`} name={props.name}>
      {[["", "any"], ...props.options].map(([value, text]) => (
        <option value={value} selected={props.value === value}>
          {text}
        </option>
      ))}
    </select>
  </div>
);

/** Keyset pages: the newest keys, and the keys older than this page's last (no total is counted). */
const Pager: FC<{ list: KeyList }> = ({ list }) => {
  if (list.before === null && list.older === null) return null;
  return (
    <nav class="pager" aria-label="Pages of the key list">
      {list.before === null ? <span class="off">Newest keys</span> : <a href={listHref(list.filters)}>Newest keys</a>}
      {list.older === null ? (
        <span class="off">Older keys</span>
      ) : (
        <a href={listHref(list.filters, list.older)} rel="next">
          Older keys
        </a>
      )}
    </nav>
  );
};

/** Rotation of the ticked keys (their checkboxes name this form), or of every active key the filter names. */
const RotationForm: FC<KeyListProps> = ({ list, csrfToken, formToken }) => {
  const { filters } = list;
  const agent = typeof filters.agent === "number" ? list.agents.find((a) => a.id === filters.agent) : undefined;
  return (
    <form id={ROTATION_FORM_ID} method="post" action="/dashboard/keys/rotation" class="row rotation-actions">
      <Csrf token={csrfToken} />
      <FormToken token={formToken} />
      <input type="hidden" name="back" value={listHref(filters, list.before)} />
      <p class="hint" id="rotation-hint">
        A key marked for rotation keeps working; its app is told (the <code>Key-Rotation: due</code> header within 60
        seconds) and rotates it itself. Only active keys whose rotation was never asked for are marked.
      </p>
      <button type="submit" name="scope" value="selected" aria-describedby="rotation-hint">
        Request rotation of the selected keys
      </button>
      {filters.mode && (
        <>
          <input type="hidden" name="mode" value={filters.mode} />
          <button type="submit" name="scope" value="mode" class="secondary" aria-describedby="rotation-hint">
            Request rotation of every active {filters.mode}-mode key
          </button>
        </>
      )}
      {agent && (
        <>
          <input type="hidden" name="agent_id" value={String(agent.id)} />
          <button type="submit" name="scope" value="agent" class="secondary" aria-describedby="rotation-hint">
            Request rotation of every active key of {agentLabel(agent)}
          </button>
        </>
      )}
    </form>
  );
};
