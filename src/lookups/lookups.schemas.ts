// The lookups' objects and the answers of the two cached lookups.
import { z } from "@hono/zod-openapi";

const areaExample = { id: 1, name: "Andheri East", city_id: 1 };
export const AreaSchema = z
  .object({ id: z.number().int(), name: z.string(), city_id: z.number().int() })
  .openapi("Area", { example: areaExample });

const postalCodeExample = { id: 1, code: "400069" };
export const PostalCodeSchema = z
  .object({ id: z.number().int(), code: z.string() })
  .openapi("PostalCode", { example: postalCodeExample });

const pincodeSalesAgentExample = { id: 5, first_name: "Rajesh", last_name: "Kulkarni", mobile: "9672310936" };
export const PincodeSalesAgentSchema = z
  .object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), mobile: z.string() })
  .openapi("PincodeSalesAgent", { example: pincodeSalesAgentExample });

export const AreasAnswerSchema = z.object({ data: z.array(AreaSchema) });

export const PincodeAnswerSchema = z.object({ data: z.array(PincodeSalesAgentSchema), message: z.string() });
