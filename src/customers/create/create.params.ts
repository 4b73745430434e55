// The nine parameters of POST /customers/create (docs/specification.md section 5) in the published order:
// the one table that the document, the checks, the Idempotency-Key fingerprint and the rows come from.
import { gstin, gstTreatment, id, MAX_TEXT_LENGTH, mobile, salesAgentId, text, type Verdict } from "./create.kinds.ts";
import { MAX_MOBILE_LENGTH } from "./create.mobile.ts";

export const PARAMS = {
  company_name: text({
    field: "companyName",
    description: `Required. Company name; at most ${MAX_TEXT_LENGTH} characters, trimmed.`,
    example: "Sharma Traders",
  }),
  mobile_number: mobile({
    field: "mobileNumber",
    description: `Required. The contact person's mobile number: 10 digits starting with 6, 7, 8 or 9, with optional spaces, hyphens, dots, brackets and a +91 or 0 prefix. No control characters anywhere (tab, CR, LF, U+2028, U+2029 and the like: 422); trimmed of spaces, then at most ${MAX_MOBILE_LENGTH} characters. Stored and served trimmed, inner spacing as given.`,
    example: "+91 98200 00001",
  }),
  contactpersons_name: text({
    field: "contactPersonName",
    description: `Required. The contact person's name; at most ${MAX_TEXT_LENGTH} characters, trimmed.`,
    example: "Ravi Sharma",
  }),
  address: text({
    field: "address",
    description: `Required. Street address, served as address.addressline1; at most ${MAX_TEXT_LENGTH} characters, trimmed.`,
    example: "12 MG Road",
  }),
  area_id: id({ field: "areaId", description: "Required. An existing area's id (GET /area).", example: 1 }),
  postalcode_id: id({
    field: "postalcodeId",
    description: "Required. An existing postal code's id (GET /postalcodes).",
    example: 1,
  }),
  gst_treatment: gstTreatment({
    field: "gstTreatment",
    description: "Required. Registered or Unregistered, in any letter case; served in this form.",
    example: "Registered",
  }),
  gstin: gstin({
    field: "gstin",
    description:
      'Required when Registered: a 15-character GSTIN (state code 01 to 38, valid check character), upper-cased. Ignored and stored as "" when Unregistered.',
    example: "27AAPFU0939F1ZV",
  }),
  salesagent_id: salesAgentId({
    field: "salesagentId",
    description:
      "Required unless the API key is bound to a sales agent: then it may be left out (it is the key's agent), and any other agent's id is a 422. An existing sales agent's id (GET /salesagents, GET /fetch-salesagent-by-pincode).",
    example: 1,
  }),
};

type Params = typeof PARAMS;
export type ParamName = keyof Params;
/** The names in the published order (the order of every 422's fields). */
export const PARAM_NAMES = Object.keys(PARAMS) as ParamName[];

type ValueOf<N extends ParamName> = Params[N]["check"] extends (...args: never[]) => Verdict<infer V> ? V : never;

/** A request that passed every rule: strings trimmed, ids numbers, GST fields canonical. */
export type NewCustomer = { [N in ParamName as Params[N]["field"]]: ValueOf<N> } & {
  /** The normalized 10 digits: the unique lookup key. */
  phoneKey: string;
};
