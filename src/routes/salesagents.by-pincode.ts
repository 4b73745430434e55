import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "../env.ts";
import { salesAgentsByPincode } from "../db/lookups.ts";
import { isPincode } from "../lib/pincode.ts";
import { cachedLookupHeaders, commonErrorResponses, notModifiedResponse } from "../schemas/common.ts";
import { pincodeSalesAgentExample } from "../schemas/examples.ts";
import { queryString } from "../schemas/params.ts";
import { cachedJson } from "./cached-json.ts";

export const PincodeSalesAgentSchema = z
  .object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), mobile: z.string() })
  .openapi("PincodeSalesAgent", { example: pincodeSalesAgentExample });

export const pincodeParam = queryString().refine(isPincode, {
  error: "must be a 6-digit PIN code that does not start with 0",
});

export const route = createRoute({
  method: "get",
  path: "/fetch-salesagent-by-pincode",
  tags: ["Lookups"],
  operationId: "listSalesAgentsByPincode",
  summary: "Sales agents serving a pincode",
  description: "The sales agents who serve a 6-digit PIN code, by id. Cached; answers carry an ETag.",
  security: [{ bearerAuth: [] }],
  middleware: [etag()] as const,
  request: {
    query: z.object({
      pincode: pincodeParam.openapi({
        param: { description: "6-digit PIN code; the first digit is not 0" },
        example: "400069",
        type: "string",
        pattern: "^[1-9][0-9]{5}$",
      }),
    }),
  },
  responses: {
    200: {
      description: "The agents (possibly none, with a message saying so)",
      headers: cachedLookupHeaders,
      content: {
        "application/json": { schema: z.object({ data: z.array(PincodeSalesAgentSchema), message: z.string() }) },
      },
    },
    304: notModifiedResponse,
    ...commonErrorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { pincode } = c.req.valid("query");
  return cachedJson(
    c,
    `pincode:${pincode}`,
    async () => {
      const data = await salesAgentsByPincode(c.get("services").db, pincode);
      return { data, message: data.length ? "" : `No sales agent serves pincode ${pincode}` };
    },
    (answer) => answer.data.length > 0,
  );
};
