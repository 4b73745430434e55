// The key list of a fleet (docs/specification.md section 9, "A dashboard for a fleet"): filters in the
// address (so that reload, Back and a bookmark show the same list), the kept counts and the rotation's
// progress, one page of rows that fit 1280 px without scrolling sideways, the pages' links, and the rotation forms.
import type { Child, FC } from "hono/jsx";
import type { AdminKey, AdminKeyWithUsage } from "../admin/admin.keys.ts";
import { KEY_LIST_PARAMS, type KeyList, type KeyListQuery } from "../admin/admin.key-list.ts";
import { COPY_JOB_INTERVAL_SECONDS, DEFAULT_GRACE_SECONDS, KEY_STATES, ROTATION_STATES } from "../keys/keys.store.ts";
import type { KeyListAgent, KeyListFilters, RotationListState } from "../keys/keys.store.ts";
import { KEY_MODES } from "../keys/keys.secret.ts";
import { Csrf, FormToken, SPANS } from "./dashboard.form-fields.tsx";
import { Time } from "./dashboard.time.tsx";
import { UsageChart } from "./dashboard.usage-chart.tsx";

/** Grace choices offered when rolling (seconds the old key keeps working): up to 7 days. */
const GRACE_CHOICES = [
  { seconds: 0, label: "now" },
  ...SPANS.slice(0, 3).map(([seconds, label]) => ({ seconds, label })),
];

const STATUS_WORDS: Record<AdminKey["status"], string> = {
  active: "active",
  grace: "expiring",
  expired: "expired",
  revoked: "revoked",
};

const ROTATION_WORDS: Record<RotationListState, string> = {
  none: "not asked",
  due: "rotation due",
  rotated: "rotated",
  rolled: "rolled",
};

/** The form that the rows' checkboxes belong to (forms do not nest; the rows have forms of their own). */
const ROTATION_FORM_ID = "rotation-form";

/** A key that a rotation request would mark: active, its rotation never asked for. */
const markable = (key: AdminKeyWithUsage) => key.status === "active" && key.rotation === null;

/** The address of the list with these filters, starting after the key `before` (none: the newest keys). */
function listHref(filters: KeyListFilters, before: string | null = null): string {
  const query: KeyListQuery = {
    name: filters.name,
    agent: filters.agent === undefined ? undefined : String(filters.agent),
    mode: filters.mode,
    status: filters.status,
    rotation: filters.rotation,
    before: before ?? undefined,
  };
  const params = new URLSearchParams();
  for (const name of KEY_LIST_PARAMS) {
    const value = query[name];
    if (value !== undefined) params.set(name, value);
  }
  const search = params.toString();
  return search === "" ? "/dashboard" : `/dashboard?${search}`;
}

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

const KeyRow: FC<{
  item: AdminKeyWithUsage;
  agents: Map<number, KeyListAgent>;
  csrfToken: string;
  formToken: string;
}> = ({ item, agents, csrfToken, formToken }) => {
  const which = `${item.name} (${item.prefix})`;
  const agent = item.agent_id === null ? undefined : agents.get(item.agent_id);
  return (
    <tr>
      <td>
        {markable(item) && (
          <input type="checkbox" name="ids" value={item.id} form={ROTATION_FORM_ID} aria-label={`Select ${which}`} />
        )}
      </td>
      <th scope="row">{item.name}</th>
      <td data-label="Key">
        <code>{item.prefix}</code>
        <br />
        <span class="hint">{item.id}</span>
        <br />
        <span class="hint">
          made <Time iso={item.created_at} />
        </span>
      </td>
      <td data-label="Agent">
        {item.agent_id === null ? (
          "every customer"
        ) : (
          <>
            {agent?.first_name ? `${agent.first_name} ${agent.last_name}` : "unknown agent"}
            <br />
            <span class="hint">#{item.agent_id}</span>
          </>
        )}
      </td>
      <td data-label="Mode and scopes">
        {item.mode}
        <br />
        <span class="scopes">{item.scopes.join(", ")}</span>
      </td>
      <td data-label="Status">
        <Status item={item} />
        <Rotation item={item} which={which} csrfToken={csrfToken} />
      </td>
      <td data-label="Last used">{item.last_used_at ? <Time iso={item.last_used_at} /> : "never"}</td>
      <td data-label="Requests">
        <span class="figures">
          24 h: <span class="num">{item.requests_24h}</span>, 7 days: <span class="num">{item.requests_7d}</span>
        </span>
        <UsageChart days={item.requests_daily} />
      </td>
      <td data-label="Actions">
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
  let detail: Child = null;
  if (item.status === "grace" && item.expires_at) {
    detail = (
      <>
        {item.rotation?.state === "rotated" ? "rotated" : "rolled"}; works until <Time iso={item.expires_at} />
      </>
    );
  } else if (item.status === "revoked" && item.revoked_at) {
    detail = <Time iso={item.revoked_at} />;
  } else if (item.status === "active" && item.expires_at) {
    detail = (
      <>
        expires <Time iso={item.expires_at} />
      </>
    );
  } else if (item.status === "expired" && item.expires_at) {
    detail = <Time iso={item.expires_at} />;
  }
  return (
    <>
      <span class={`status status-${item.status}`}>{STATUS_WORDS[item.status]}</span>
      {detail && <span class="hint detail">{detail}</span>}
      {item.copy_pending && (
        <>
          <span class="status status-pending">copy pending</span>
          <span class="hint detail">
            authentication may not see this yet; written again within {COPY_JOB_INTERVAL_SECONDS / 60} minutes
          </span>
        </>
      )}
    </>
  );
};

/**
 * Asks for the rotation of the keys ticked in the list (their checkboxes name this form), or of every
 * active key of the mode or the agent that the list is filtered by (docs/specification.md section 9).
 */
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

/** The key's rotation, and the warning of an old key used after its successor, with the revocation of its lineage. */
const Rotation: FC<{ item: AdminKeyWithUsage; which: string; csrfToken: string }> = ({ item, which, csrfToken }) => {
  const rotation = item.rotation;
  if (!rotation) return null;
  const late = rotation.old_key_uses_after_successor;
  return (
    <>
      <span class={`status rotation-${rotation.state}`}>{ROTATION_WORDS[rotation.state]}</span>
      {rotation.state === "due" && rotation.requested_at && (
        <span class="hint detail">
          asked <Time iso={rotation.requested_at} />
        </span>
      )}
      {rotation.state === "rotated" && (
        <span class="hint detail">
          {rotation.rotated_at && (
            <>
              <Time iso={rotation.rotated_at} />,{" "}
            </>
          )}
          successor {rotation.successor_id}
        </span>
      )}
      {rotation.state === "rolled" && <span class="hint detail">a roll cancelled the rotation</span>}
      {late > 0 && (
        <div class="late" role="note">
          <strong>Warning:</strong> used {late} {late === 1 ? "time" : "times"} after its successor: it may have been
          copied.
          {rotation.successor_id && (
            <form method="post" action={`/dashboard/keys/${item.id}/revoke-lineage`}>
              <Csrf token={csrfToken} />
              <button type="submit" class="danger">
                Revoke its whole lineage<span class="vh"> of {which}: every working key made from it or before it</span>
              </button>
            </form>
          )}
        </div>
      )}
    </>
  );
};
