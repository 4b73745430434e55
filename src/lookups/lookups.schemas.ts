// The lookups' objects: an area, a postal code, and a sales agent as the pincode lookup lists it.
import { z } from "@hono/zod-openapi";
import { areaExample, pincodeSalesAgentExample, postalCodeExample } from "../platform/examples.ts";

export const AreaSchema = z.object({ id: z.number().int(), name: z.string(), city_id: z.number().int() }).openapi("Area", { example: areaExample });

export const PostalCodeSchema = z.object({ id: z.number().int(), code: z.string() }).openapi("PostalCode", { example: postalCodeExample });

export const PincodeSalesAgentSchema = z
  .object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), mobile: z.string() })
  .openapi("PincodeSalesAgent", { example: pincodeSalesAgentExample });
