// The forms' sales agent picker without a script: a search button of the form itself (posting to /agents) brings the
// page back with the matches as radio buttons and the typed fields kept; GET ?agent_q= searches too.
import type { FC } from "hono/jsx";
import type { AdminAgent } from "../admin/admin.salesagents.ts";
import { MAX_AGENT_QUERY_LENGTH } from "../admin/admin.salesagents.ts";

export interface AgentPickerProps {
  /** The search as typed, or undefined: no search made. */
  query?: string;
  /** The agents to choose from (a search's matches, or the agent a refused form had chosen). */
  agents: readonly AdminAgent[];
  /** The chosen agent's id as the form sent it ("" or absent: no agent). */
  chosen?: string;
  focusFirst: boolean;
  limit: number;
}

function pickerHint(query: string | undefined, found: number, limit: number): string {
  if (query === undefined)
    return "No agent: the key sees every customer. Search above to bind it to one agent's customers.";
  const count = found === limit ? `The first ${limit}` : String(found);
  if (query.trim() === "")
    return found === 0 ? "There are no sales agents." : `${count} sales agent${found === 1 ? "" : "s"}, by id.`;
  if (found === 0) return `No sales agent matches “${query}”.`;
  return `${count} match${found === 1 ? "" : "es"} for “${query}”.`;
}

export const agentName = (a: AdminAgent) => `${a.first_name} ${a.last_name}`;

/** The search, the form's first button (so Enter searches rather than making anything), posting it to `action`. */
export const AgentSearch: FC<{ query?: string; action: string }> = ({ query, action }) => (
  <div role="search" class="row agent-search" aria-label="Sales agents">
    <div>
      <label for="agent-q">Find a sales agent to bind the key to</label>
      <input
        id="agent-q"
        name="agent_q"
        type="search"
        maxlength={MAX_AGENT_QUERY_LENGTH}
        autocomplete="off"
        value={query ?? ""}
        aria-describedby="agent-q-hint"
      />
      <p id="agent-q-hint" class="hint">
        A part of the name or of the mobile number.
      </p>
    </div>
    <button type="submit" class="secondary" formaction={action} formnovalidate>
      Find agents
    </button>
  </div>
);

/** `required`: an enrollment code's agent, without the "no agent" choice. */
export const AgentChoices: FC<AgentPickerProps & { required?: boolean }> = ({
  query,
  agents,
  chosen,
  focusFirst,
  limit,
  required,
}) => {
  const picked = agents.some((a) => String(a.id) === chosen) ? chosen : "";
  return (
    <fieldset class="agents">
      <legend>Sales agent</legend>
      <p class="hint" id="agent-hint">
        {required && query === undefined
          ? "Search above for the sales agent whose phone this code enrolls."
          : pickerHint(query, agents.length, limit)}
      </p>
      <div class="agent-list">
        {!required && (
          <label class="choice">
            <input type="radio" name="agent_id" value="" checked={picked === ""} aria-describedby="agent-hint" /> no
            agent (every customer)
          </label>
        )}
        {agents.map((a, i) => (
          <label class="choice">
            <input
              type="radio"
              name="agent_id"
              value={String(a.id)}
              checked={picked === String(a.id) || (required && agents.length === 1) || undefined}
              required={required || undefined}
              aria-describedby={required && i === 0 ? "agent-hint" : undefined}
              autofocus={focusFirst && i === 0 ? true : undefined}
            />{" "}
            {agentName(a)} ({a.mobile_number}), #{a.id}
          </label>
        ))}
      </div>
    </fieldset>
  );
};
