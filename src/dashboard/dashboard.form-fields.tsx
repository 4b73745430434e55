// The hidden fields that every dashboard form carries: the session's CSRF token and, on the forms that
// must not repeat, the page's one-time form token.
import type { FC } from "hono/jsx";
import { CSRF_FIELD } from "../admin/admin.session.ts";
import { FORM_TOKEN_FIELD } from "../admin/admin.form-tokens.ts";

export const Csrf: FC<{ token: string }> = ({ token }) => <input type="hidden" name={CSRF_FIELD} value={token} />;
export const FormToken: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
);
