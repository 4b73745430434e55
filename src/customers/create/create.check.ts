// The rules of POST /customers/create (docs/specification.md section 5): every broken parameter is
// collected, the unknown ids found in D1 afterwards too, so that one 422 lists them all.
import type { FieldError } from "../../platform/errors.ts";
import { normalizePhone } from "../../platform/lib/phone.ts";
import type { References } from "./create.found.ts";
import type { Sender } from "./create.kinds.ts";
import { PARAM_NAMES, PARAMS, type NewCustomer } from "./create.params.ts";
import type { RawParams } from "./create.request.ts";

export interface Checked {
  fields: FieldError[];
  /** Every value that passed its own rule, even when others failed (the ids still get looked up). */
  valid: Partial<NewCustomer>;
}

/** `sender` matters because an agent-bound key may leave its agent out. */
export function checkParams(raw: RawParams, sender: Sender): Checked {
  const fields: FieldError[] = [];
  // Filled by field name from the table, so typed as the table's NewCustomer once filled.
  const values: Record<string, unknown> = {};
  const valid = values as Partial<NewCustomer>;
  for (const name of PARAM_NAMES) {
    const param = PARAMS[name];
    const verdict = param.check(raw[name], valid, sender);
    if ("problem" in verdict) fields.push({ field: name, message: verdict.problem });
    else if ("value" in verdict) values[param.field] = verdict.value;
  }
  if (valid.mobileNumber !== undefined) valid.phoneKey = normalizePhone(valid.mobileNumber);
  return { fields, valid };
}

export function unknownReferences(valid: Partial<NewCustomer>, refs: References): FieldError[] {
  const out: FieldError[] = [];
  if (valid.areaId !== undefined && !refs.area)
    out.push({ field: "area_id", message: "names no area: no area has this id" });
  if (valid.postalcodeId !== undefined && !refs.postalcode) {
    out.push({ field: "postalcode_id", message: "names no postal code: no postal code has this id" });
  }
  if (valid.salesagentId !== undefined && !refs.salesAgentExists) {
    out.push({ field: "salesagent_id", message: "names no sales agent: no sales agent has this id" });
  }
  return out;
}

/** The published parameter order; the Idempotency-Key header's error last. */
export function inRequestOrder(fields: FieldError[]): FieldError[] {
  const rank = (f: FieldError) => {
    const i = (PARAM_NAMES as readonly string[]).indexOf(f.field);
    return i === -1 ? PARAM_NAMES.length : i;
  };
  return [...fields].sort((a, b) => rank(a) - rank(b));
}

/** A type guard: with no errors, the valid values are a whole NewCustomer. */
export function isComplete(fields: FieldError[], _valid: Partial<NewCustomer>): _valid is NewCustomer {
  return fields.length === 0;
}
