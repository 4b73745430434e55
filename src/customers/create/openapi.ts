// How POST /customers/create's parameters are described in the OpenAPI document and typed for the
// client (src/client.ts). None of these schemas checks a request on its own: the query schema
// accepts anything and src/index.ts leaves request bodies to the handler, so that the parameters
// are merged first (body over query) and then checked as one set (validate.ts), which is what lets
// one 422 list every broken parameter.
import { z } from "@hono/zod-openapi";
import { MAX_MOBILE_LENGTH } from "./mobile.ts";
import { GST_TREATMENTS, MAX_TEXT_LENGTH } from "./validate.ts";

const SOURCES = "In the query string, a JSON body or a form body; a body value wins over a query value.";

const positiveInteger = () => z.number().int().min(1);

/**
 * The three kinds of parameter. Each has its description and example, its type as the query
 * documents it, and its schema in a form body and in a JSON body (where an id may also be a
 * string of digits).
 */
const text = (description: string, example: string) => ({
  description,
  example,
  queryType: { type: "string" as const },
  form: z.string(),
  json: z.string(),
});
const id = (description: string, example: number) => ({
  description,
  example,
  queryType: { type: "integer" as const, minimum: 1 },
  form: positiveInteger(),
  json: z.union([positiveInteger(), z.string().regex(/^[0-9]+$/)]).openapi({}, { unionPreferredType: "oneOf" }),
});
const choice = <const T extends readonly [string, ...string[]]>(description: string, values: T, example: T[number]) => ({
  description,
  example,
  queryType: { type: "string" as const, enum: [...values] },
  form: z.enum(values),
  json: z.enum(values),
});

const params = {
  company_name: text(`Required. Company name; at most ${MAX_TEXT_LENGTH} characters, trimmed.`, "Sharma Traders"),
  mobile_number: text(
    `Required. The contact person's mobile number: 10 digits starting with 6, 7, 8 or 9, with optional spaces, hyphens, dots, brackets and a +91 or 0 prefix. No control characters anywhere (tab, CR, LF, U+2028, U+2029 and the like: 422); trimmed of spaces, then at most ${MAX_MOBILE_LENGTH} characters. Stored and served trimmed, inner spacing as given.`,
    "+91 98200 00001",
  ),
  contactpersons_name: text(`Required. The contact person's name; at most ${MAX_TEXT_LENGTH} characters, trimmed.`, "Ravi Sharma"),
  address: text(`Required. Street address, served as address.addressline1; at most ${MAX_TEXT_LENGTH} characters, trimmed.`, "12 MG Road"),
  area_id: id("Required. An existing area's id (GET /area).", 1),
  postalcode_id: id("Required. An existing postal code's id (GET /postalcodes).", 1),
  gst_treatment: choice("Required. Registered or Unregistered, in any letter case; served in this form.", GST_TREATMENTS, "Registered"),
  gstin: text(
    "Required when Registered: a 15-character GSTIN (state code 01 to 38, valid check character), upper-cased. Ignored and stored as \"\" when Unregistered.",
    "27AAPFU0939F1ZV",
  ),
  salesagent_id: id("Required. An existing sales agent's id (GET /salesagents, GET /fetch-salesagent-by-pincode).", 1),
};

type Params = typeof params;
type Name = keyof Params;
const names = Object.keys(params) as Name[];

/** Query parameters: documented with their types, validated only after merging with the body. */
export const createQuery = z.object(
  Object.fromEntries(
    names.map((name) => {
      const { description, example, queryType } = params[name];
      return [name, z.unknown().optional().openapi({ ...queryType, example, param: { description: `${description} ${SOURCES}` } })];
    }),
  ) as Record<Name, z.ZodOptional<z.ZodUnknown>>,
);

type BodySchema<S extends "form" | "json"> = z.ZodObject<{ [K in Name]: z.ZodOptional<Params[K][S]> }>;

/** A body of some or all of the parameters, each optional: any of them may come in the query instead. */
function bodySchema<S extends "form" | "json">(source: S): BodySchema<S> {
  const shape = Object.fromEntries(
    names.map((name) => {
      const { description, example } = params[name];
      return [name, params[name][source].optional().openapi({ description, example })];
    }),
  );
  return z.object(shape) as unknown as BodySchema<S>;
}

const formBody = bodySchema("form");

export const createBody = {
  required: false,
  description:
    "Some or all of the parameters; any of them may come in the query string instead, and a body value wins over a query value of the same name. Unknown members are ignored.",
  content: {
    "application/json": { schema: bodySchema("json") },
    "application/x-www-form-urlencoded": { schema: formBody },
    "multipart/form-data": { schema: formBody },
  },
};
