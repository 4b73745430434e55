// The dashboard's forms as zod reads them (text or absent); the shared key and code rules then judge the values, so
// a refusal names the same rule in the same words as the API's and the command line's.
import { z } from "zod";

/** One text field; a file or a repeated field reads as absent. */
const text = z.string().optional().catch(undefined);
/** A field that may be sent more than once (checkboxes): its texts, none when absent. */
const texts = z.preprocess(
  (value) => (value === undefined ? [] : [value].flat()),
  z.array(z.unknown()).transform((values) => values.filter((v): v is string => typeof v === "string")),
);

/** Form numbers are plain digits; anything else stays text so that validation names the rule. */
export function number(value: string): number | string {
  return /^\d{1,15}$/.test(value) ? Number(value) : value;
}

/** `value` as a number for the rules, or `none` when the field was empty or not sent. */
export function optionalNumber<T>(value: string | undefined, none: T): number | string | T {
  return value === undefined || value === "" ? none : number(value);
}

/** The sign-in form: of a repeated field, the last, as a plain form parser reads it. */
export const signInForm = z.object({ token: z.preprocess((v) => (Array.isArray(v) ? v.at(-1) : v), text) });

/** The make-key form (and its "Find agents" button, which sends `agent_q` with it). */
export const keyForm = z.object({
  name: text,
  mode: text,
  expires_in: text,
  // No box ticked sends no field: an empty list, which the rules refuse (absent would mean both).
  scopes: texts,
  agent_id: text,
  agent_q: text,
});
export type KeyFormValues = z.infer<typeof keyForm>;

/** The make-code form: the make-key form's fields and the life of the key that the code makes. */
export const codeForm = keyForm.extend({ key_expires_in: text });
export type CodeFormValues = z.infer<typeof codeForm>;

export const rollForm = z.object({ grace: text });

/** The key list's rotation form: the keys ticked, or every active key of the list's mode or agent. */
export const rotationForm = z.object({ scope: text, ids: texts, mode: text, agent_id: text, back: text });
