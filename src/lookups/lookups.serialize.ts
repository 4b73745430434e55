// The lookups' objects as served, typed by the schemas so the compiler holds each answer to the document.
import type { z } from "@hono/zod-openapi";
import type { AreaSchema, PincodeSalesAgentSchema, PostalCodeSchema } from "./lookups.schemas.ts";
import type { OrderSalesAgentSchema } from "../orders/orders.schemas.ts";

export function toArea(row: { id: number; name: string; cityId: number }): z.infer<typeof AreaSchema> {
  return { id: row.id, name: row.name, city_id: row.cityId };
}

export function toPostalCode(row: { id: number; code: string }): z.infer<typeof PostalCodeSchema> {
  return { id: row.id, code: row.code };
}

export function toPincodeSalesAgent(row: {
  id: number;
  firstName: string;
  lastName: string;
  mobileNumber: string;
}): z.infer<typeof PincodeSalesAgentSchema> {
  return { id: row.id, first_name: row.firstName, last_name: row.lastName, mobile: row.mobileNumber };
}

export function toSalesAgent(row: {
  id: number;
  firstName: string;
  lastName: string;
  mobileNumber: string;
  avatar: string | null;
  email: string | null;
}): z.infer<typeof OrderSalesAgentSchema> {
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    mobile_number: row.mobileNumber,
    avatar: row.avatar,
    email: row.email,
  };
}
