// One key's row of the key list: its state, rotation and use, and its forms (roll, revoke, revoke its lineage).
import type { Child, FC } from "hono/jsx";
import type { AdminKey, AdminKeyWithUsage } from "../admin/admin.keys.ts";
import { COPY_JOB_INTERVAL_SECONDS, DEFAULT_GRACE_SECONDS } from "../keys/keys.store.ts";
import type { KeyListAgent, RotationListState } from "../keys/keys.store.ts";
import { Csrf, FormToken, SPANS, Time } from "./dashboard.layout.tsx";
import { UsageChart } from "./dashboard.usage-chart.tsx";

/** Grace choices offered when rolling (seconds the old key keeps working): up to 7 days. */
const GRACE_CHOICES = [
  { seconds: 0, label: "now" },
  ...SPANS.slice(0, 3).map(([seconds, label]) => ({ seconds, label })),
];

export const STATUS_WORDS: Record<AdminKey["status"], string> = {
  active: "active",
  grace: "expiring",
  expired: "expired",
  revoked: "revoked",
};

export const ROTATION_WORDS: Record<RotationListState, string> = {
  none: "not asked",
  due: "rotation due",
  rotated: "rotated",
  rolled: "rolled",
};

/** The form that the rows' checkboxes belong to (forms do not nest; the rows have forms of their own). */
export const ROTATION_FORM_ID = "rotation-form";

/** A key that a rotation request would mark: active, its rotation never asked for. */
const markable = (key: AdminKeyWithUsage) => key.status === "active" && key.rotation === null;

export const KeyRow: FC<{
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
