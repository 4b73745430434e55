// The kinds of parameter that POST /customers/create takes: for each, how the document describes it
// (query, JSON and form) and its rule, which turns a value as sent into the value stored or a problem.
import { z } from "@hono/zod-openapi";
import { gstinProblem, type GstinProblem } from "../../platform/lib/gstin.ts";
import { checkMobile } from "./create.mobile.ts";

export const MAX_TEXT_LENGTH = 255;
export const GST_TREATMENTS = ["Registered", "Unregistered"] as const;
export type GstTreatment = (typeof GST_TREATMENTS)[number];

/** A name that a query string or form gave more than once: an error, never a silent pick. */
export class Repeated {
  constructor(readonly values: readonly unknown[]) {}
}

/** A rule's verdict: the value to store, what is wrong, or (GSTIN) nothing to store and nothing to say. */
export type Verdict<V> = { value: V } | { problem: string } | { ignored: true };

/** What the parameters before this one in the table gave (only GSTIN looks: at the GST treatment). */
export interface Earlier {
  gstTreatment?: GstTreatment;
}

export interface Sender {
  keyAgentId: number | null;
}

interface Doc {
  /** The member of the checked parameters (NewCustomer) that holds the value. */
  field: string;
  description: string;
}

const ONCE = "must be given once, as a single value";
const problem = (message: string) => ({ problem: message });
const IGNORED = { ignored: true } as const;

function given(raw: unknown): Verdict<string> {
  if (raw === undefined) return problem("is required");
  if (raw instanceof Repeated) return problem(ONCE);
  if (typeof raw !== "string") return problem("must be a string");
  return { value: raw };
}

export function text<const F extends string>(doc: Doc & { field: F; example: string }) {
  return {
    ...doc,
    queryType: { type: "string" as const },
    form: z.string(),
    json: z.string(),
    check(raw: unknown, _earlier: Earlier): Verdict<string> {
      const sent = given(raw);
      if (!("value" in sent)) return sent;
      const trimmed = sent.value.trim();
      if (trimmed === "") return problem("must not be empty");
      if ([...trimmed].length > MAX_TEXT_LENGTH) return problem(`must be at most ${MAX_TEXT_LENGTH} characters`);
      return { value: trimmed };
    },
  };
}

/** Stored and fingerprinted as trimmed, inner spacing as given (create.mobile.ts has the rule). */
export function mobile<const F extends string>(doc: Doc & { field: F; example: string }) {
  return {
    ...text(doc),
    check(raw: unknown, _earlier: Earlier): Verdict<string> {
      const sent = given(raw);
      if (!("value" in sent)) return sent;
      const checked = checkMobile(sent.value);
      return "problem" in checked ? checked : { value: checked.number };
    },
  };
}

const positiveInteger = () => z.number().int().min(1);

export function id<const F extends string>(doc: Doc & { field: F; example: number }) {
  return {
    ...doc,
    queryType: { type: "integer" as const, minimum: 1 },
    form: positiveInteger(),
    json: z.union([positiveInteger(), z.string().regex(/^[0-9]+$/)]).openapi({}, { unionPreferredType: "oneOf" }),
    check(raw: unknown, _earlier: Earlier): Verdict<number> {
      if (raw === undefined) return problem("is required");
      if (raw instanceof Repeated) return problem(ONCE);
      const n = toPositiveInteger(raw);
      return n === undefined ? problem("must be a positive integer") : { value: n };
    },
  };
}

/** A key bound to an agent may leave it out and may name no other (docs/specification.md section 2). */
export function salesAgentId<const F extends string>(doc: Doc & { field: F; example: number }) {
  const plain = id(doc);
  return {
    ...plain,
    check(raw: unknown, earlier: Earlier, sender: Sender): Verdict<number> {
      const bound = sender.keyAgentId;
      if (bound === null) return plain.check(raw, earlier);
      if (raw === undefined) return { value: bound };
      const verdict = plain.check(raw, earlier);
      if ("value" in verdict && verdict.value !== bound) {
        return problem(
          `must be ${bound}, the sales agent this API key is bound to (or be left out): the key creates customers for its own agent only`,
        );
      }
      return verdict;
    },
  };
}

export function gstTreatment<const F extends string>(doc: Doc & { field: F; example: GstTreatment }) {
  return {
    ...doc,
    queryType: { type: "string" as const, enum: [...GST_TREATMENTS] },
    form: z.enum(GST_TREATMENTS),
    json: z.enum(GST_TREATMENTS),
    check(raw: unknown, _earlier: Earlier): Verdict<GstTreatment> {
      if (raw === undefined) return problem("is required");
      if (raw instanceof Repeated) return problem(ONCE);
      const canonical =
        typeof raw === "string" ? GST_TREATMENTS.find((t) => t.toLowerCase() === raw.trim().toLowerCase()) : undefined;
      return canonical === undefined ? problem("must be Registered or Unregistered") : { value: canonical };
    },
  };
}

const GSTIN_MESSAGES: Record<GstinProblem, string> = {
  length: "must be 15 characters",
  pattern: "must match the GSTIN pattern: 2-digit state code, 10-character PAN, entity character, Z, check character",
  state: "must start with a state code from 01 to 38",
  checksum: "has a wrong check character (the 15th character)",
};

/** With an unusable GST treatment, only a broken GSTIN is reported. */
export function gstin<const F extends string>(doc: Doc & { field: F; example: string }) {
  return {
    ...text(doc),
    check(raw: unknown, earlier: Earlier): Verdict<string> {
      if (earlier.gstTreatment === "Unregistered") return { value: "" };
      const registered = earlier.gstTreatment === "Registered";
      if (raw === undefined || (typeof raw === "string" && raw.trim() === "")) {
        return registered ? problem("is required when gst_treatment is Registered") : IGNORED;
      }
      if (raw instanceof Repeated) return problem(ONCE);
      if (typeof raw !== "string") return problem("must be a string");
      const upper = raw.trim().toUpperCase();
      const wrong = gstinProblem(upper);
      if (wrong) return problem(GSTIN_MESSAGES[wrong]);
      return registered ? { value: upper } : IGNORED;
    },
  };
}

export function toPositiveInteger(value: unknown): number | undefined {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && /^\d{1,15}$/.test(value)) n = Number(value);
  else return undefined;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}
