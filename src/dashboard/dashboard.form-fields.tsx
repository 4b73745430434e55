// What the dashboard's forms share: the hidden fields every form carries (the session's CSRF token and,
// on the forms that must not repeat, the page's one-time form token), the spans its choices offer and their select.
import type { FC } from "hono/jsx";
import { CSRF_FIELD } from "../admin/admin.session.ts";
import { FORM_TOKEN_FIELD } from "../admin/admin.form-tokens.ts";

export const Csrf: FC<{ token: string }> = ({ token }) => <input type="hidden" name={CSRF_FIELD} value={token} />;
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
