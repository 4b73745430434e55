// POST /customers/create's parameters for the document and the typed client. None of these schemas checks
// a request: the parameters are merged first, then checked as one set, so that one 422 lists them all.
import { z } from "@hono/zod-openapi";
import { PARAM_NAMES, PARAMS, type ParamName } from "./create.params.ts";

type Params = typeof PARAMS;

const SOURCES = "In the query string, a JSON body or a form body; a body value wins over a query value.";

export const createQuery = z.object(
  Object.fromEntries(
    PARAM_NAMES.map((name) => {
      const { description, example, queryType } = PARAMS[name];
      return [
        name,
        z
          .unknown()
          .optional()
          .openapi({ ...queryType, example, param: { description: `${description} ${SOURCES}` } }),
      ];
    }),
  ) as Record<ParamName, z.ZodOptional<z.ZodUnknown>>,
);

type BodySchema<S extends "form" | "json"> = z.ZodObject<{ [K in ParamName]: z.ZodOptional<Params[K][S]> }>;

/** Each optional: any of them may come in the query instead. */
function bodySchema<S extends "form" | "json">(source: S): BodySchema<S> {
  const shape = Object.fromEntries(
    PARAM_NAMES.map((name) => {
      const { description, example } = PARAMS[name];
      return [name, PARAMS[name][source].optional().openapi({ description, example })];
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
