// How POST /customers/create's parameters are described in the OpenAPI document. The query schema
// accepts anything and the body schemas are plain OpenAPI objects, so that zod-openapi validates
// neither source on its own: the parameters are merged first (body over query) and then checked as
// one set (validate.ts), which is what lets one 422 list every broken parameter.
import { z } from "@hono/zod-openapi";
import { MAX_TEXT_LENGTH } from "./validate.ts";

const SOURCES = "In the query string, a JSON body or a form body; a body value wins over a query value.";

const textDoc = (description: string, example: string) => ({ description, example, type: "string" as const });
const idDoc = (description: string, example: number) => ({ description, example, type: "integer" as const, minimum: 1 });

const docs = {
  company_name: textDoc(`Required. Company name; at most ${MAX_TEXT_LENGTH} characters, trimmed.`, "Sharma Traders"),
  mobile_number: textDoc(
    "Required. The contact person's mobile number: 10 digits starting with 6, 7, 8 or 9, with optional spaces, hyphens, dots, brackets and a +91 or 0 prefix. Stored and served as given.",
    "+91 98200 00001",
  ),
  contactpersons_name: textDoc(`Required. The contact person's name; at most ${MAX_TEXT_LENGTH} characters, trimmed.`, "Ravi Sharma"),
  address: textDoc(`Required. Street address, served as address.addressline1; at most ${MAX_TEXT_LENGTH} characters, trimmed.`, "12 MG Road"),
  area_id: idDoc("Required. An existing area's id (GET /area).", 1),
  postalcode_id: idDoc("Required. An existing postal code's id (GET /postalcodes).", 1),
  gst_treatment: { ...textDoc("Required. Registered or Unregistered, in any letter case; served in this form.", "Registered"), enum: ["Registered", "Unregistered"] },
  gstin: textDoc(
    "Required when Registered: a 15-character GSTIN (state code 01 to 38, valid check character), upper-cased. Ignored and stored as \"\" when Unregistered.",
    "27AAPFU0939F1ZV",
  ),
  salesagent_id: idDoc("Required. An existing sales agent's id (GET /salesagents, GET /fetch-salesagent-by-pincode).", 1),
};

type Name = keyof typeof docs;
const names = Object.keys(docs) as Name[];

/** Query parameters: documented with their types, validated only after merging with the body. */
export const createQuery = z.object(
  Object.fromEntries(
    names.map((name) => {
      const { description, ...schema } = docs[name];
      return [name, z.unknown().optional().openapi({ ...schema, param: { description: `${description} ${SOURCES}` } })];
    }),
  ) as Record<Name, z.ZodOptional<z.ZodUnknown>>,
);

/** Body properties; in JSON an id may also be a string of digits (in a form it is text anyway). */
const properties = (json: boolean) =>
  Object.fromEntries(
    names.map((name) => {
      const doc = docs[name];
      if (json && doc.type === "integer") {
        const { type: _type, minimum: _minimum, ...rest } = doc;
        return [name, { ...rest, oneOf: [{ type: "integer", minimum: 1 }, { type: "string", pattern: "^[0-9]+$" }] }];
      }
      return [name, doc];
    }),
  );

const bodyDescription = "Some or all of the parameters; any of them may come in the query string instead, and a body value wins over a query value of the same name. Unknown members are ignored.";

/** Plain OpenAPI schema objects (not zod), so that no validator is attached for them. */
export const createBody = {
  required: false,
  description: bodyDescription,
  content: {
    "application/json": { schema: { type: "object" as const, properties: properties(true) } },
    "application/x-www-form-urlencoded": { schema: { type: "object" as const, properties: properties(false) } },
    "multipart/form-data": { schema: { type: "object" as const, properties: properties(false) } },
  },
};
