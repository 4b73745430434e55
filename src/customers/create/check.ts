// The rules of POST /customers/create (SPEC.md section 5) that need no database: every broken
// parameter is collected, by its request name, so that one 422 lists them all. The existence of the
// three ids is checked against D1 afterwards and joins the same list.
import type { FieldError } from "../../lib/errors.ts";
import { gstinProblem, type GstinProblem } from "../../lib/gstin.ts";
import { checkMobile } from "./mobile.ts";
import { PARAM_NAMES, Repeated, type ParamName, type RawParams } from "./params.ts";

export const MAX_TEXT_LENGTH = 255;
export const GST_TREATMENTS = ["Registered", "Unregistered"] as const;
export type GstTreatment = (typeof GST_TREATMENTS)[number];

/** A request that passed every rule: strings trimmed, ids numbers, GST fields canonical. */
export interface NewCustomer {
  companyName: string;
  contactPersonName: string;
  address: string;
  /** Trimmed, with inner spacing as given: it is stored and served so. */
  mobileNumber: string;
  /** Its normalized 10 digits: the unique lookup key. */
  phoneKey: string;
  areaId: number;
  postalcodeId: number;
  salesagentId: number;
  gstTreatment: GstTreatment;
  /** Upper-cased when Registered; "" when Unregistered. */
  gstin: string;
}

export interface Checked {
  fields: FieldError[];
  /** Every value that passed its own rule, even when others failed (the ids still get looked up). */
  valid: Partial<NewCustomer>;
}

const GSTIN_MESSAGES: Record<GstinProblem, string> = {
  length: "must be 15 characters",
  pattern: "must match the GSTIN pattern: 2-digit state code, 10-character PAN, entity character, Z, check character",
  state: "must start with a state code from 01 to 38",
  checksum: "has a wrong check character (the 15th character)",
};

export function checkParams(raw: RawParams): Checked {
  const fields: FieldError[] = [];
  const valid: Partial<NewCustomer> = {};
  const fail = (field: ParamName, message: string) => fields.push({ field, message });

  /** The value as sent, when it is one string. */
  const given = (name: ParamName): string | undefined => {
    const value = raw[name];
    if (value === undefined) return void fail(name, "is required");
    if (value instanceof Repeated) return void fail(name, "must be given once, as a single value");
    if (typeof value !== "string") return void fail(name, "must be a string");
    return value;
  };
  const text = (name: ParamName): string | undefined => {
    const value = given(name);
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    if (trimmed === "") return void fail(name, "must not be empty");
    if ([...trimmed].length > MAX_TEXT_LENGTH) return void fail(name, `must be at most ${MAX_TEXT_LENGTH} characters`);
    return trimmed;
  };
  const id = (name: ParamName): number | undefined => {
    const value = raw[name];
    if (value === undefined) return void fail(name, "is required");
    if (value instanceof Repeated) return void fail(name, "must be given once, as a single value");
    const n = positiveInteger(value);
    if (n === undefined) return void fail(name, "must be a positive integer");
    return n;
  };

  valid.companyName = text("company_name");
  const mobile = given("mobile_number");
  if (mobile !== undefined) {
    const checked = checkMobile(mobile);
    if ("problem" in checked) fail("mobile_number", checked.problem);
    else {
      valid.mobileNumber = checked.number;
      valid.phoneKey = checked.phoneKey;
    }
  }
  valid.contactPersonName = text("contactpersons_name");
  valid.address = text("address");
  valid.areaId = id("area_id");
  valid.postalcodeId = id("postalcode_id");
  checkGst(raw, valid, fail);
  valid.salesagentId = id("salesagent_id");

  return { fields, valid: dropUndefined(valid) };
}

function checkGst(raw: RawParams, valid: Partial<NewCustomer>, fail: (field: ParamName, message: string) => void) {
  const treatment = raw.gst_treatment;
  if (treatment === undefined) fail("gst_treatment", "is required");
  else if (treatment instanceof Repeated) fail("gst_treatment", "must be given once, as a single value");
  else {
    const canonical =
      typeof treatment === "string" ? GST_TREATMENTS.find((t) => t.toLowerCase() === treatment.trim().toLowerCase()) : undefined;
    if (canonical === undefined) fail("gst_treatment", "must be Registered or Unregistered");
    valid.gstTreatment = canonical;
  }

  // Ignored when Unregistered, whatever it holds.
  if (valid.gstTreatment === "Unregistered") {
    valid.gstin = "";
    return;
  }
  const gstin = raw.gstin;
  const registered = valid.gstTreatment === "Registered";
  if (gstin === undefined || (typeof gstin === "string" && gstin.trim() === "")) {
    // With an unusable gst_treatment, a missing gstin may be right: only that one is reported.
    if (registered) fail("gstin", "is required when gst_treatment is Registered");
    return;
  }
  if (gstin instanceof Repeated) return fail("gstin", "must be given once, as a single value");
  if (typeof gstin !== "string") return fail("gstin", "must be a string");
  const upper = gstin.trim().toUpperCase();
  const problem = gstinProblem(upper);
  if (problem) return fail("gstin", GSTIN_MESSAGES[problem]);
  if (registered) valid.gstin = upper;
}

/** A JSON number, or a string of plain digits (query, form or JSON), that is a whole number of 1 or more. */
export function positiveInteger(value: unknown): number | undefined {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && /^\d{1,15}$/.test(value)) n = Number(value);
  else return undefined;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** Errors in the order of the published parameter table; the header's last. */
export function inRequestOrder(fields: FieldError[]): FieldError[] {
  const rank = (f: FieldError) => {
    const i = (PARAM_NAMES as readonly string[]).indexOf(f.field);
    return i === -1 ? PARAM_NAMES.length : i;
  };
  return [...fields].sort((a, b) => rank(a) - rank(b));
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
