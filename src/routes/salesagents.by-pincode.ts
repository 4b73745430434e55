import { z, type RouteHandler } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "../env.ts";
import { salesAgentsByPincode } from "../db/lookups.ts";
import { isPincode } from "../lib/pincode.ts";
import { cachedLookupHeaders, commonErrorResponses, notModifiedResponse } from "../schemas/common.ts";
import { PincodeSalesAgentSchema } from "../schemas/lookups.ts";
import { toPincodeSalesAgent } from "../lookups/answer.ts";
import { queryString } from "../schemas/params.ts";
import { cachedJson } from "./cached-json.ts";
import { apiRoute } from "./router.ts";

export const pincodeParam = queryString().refine(isPincode, {
  error: "must be a 6-digit PIN code that does not start with 0",
});

const PincodeAnswerSchema = z.object({ data: z.array(PincodeSalesAgentSchema), message: z.string() });

export const route = apiRoute({
  method: "get",
  scope: "read",
  path: "/fetch-salesagent-by-pincode",
  tags: ["Lookups"],
  operationId: "listSalesAgentsByPincode",
  summary: "Sales agents serving a pincode",
  description: "The sales agents who serve a 6-digit PIN code, by id. Cached; answers carry an ETag.",
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
        "application/json": { schema: PincodeAnswerSchema },
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
    async (): Promise<z.infer<typeof PincodeAnswerSchema>> => {
      const data = (await salesAgentsByPincode(c.get("services").db, pincode)).map(toPincodeSalesAgent);
      return { data, message: data.length ? "" : `No sales agent serves pincode ${pincode}` };
    },
    (answer) => answer.data.length > 0,
  );
};
