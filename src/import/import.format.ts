// The dataset format of docs/commands.md, shared by the importer and the generator (scripts/dataset).
import type { OrderStatusName } from "../orders/orders.schemas.ts";

/** The record types, in the order a JSON Lines file gives them (each refers only to earlier ones). */
export const RECORD_TYPES = [
  "state",
  "city",
  "area",
  "postal_code",
  "sales_agent",
  "delivery_agent",
  "product",
  "customer",
  "order",
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface StateRecord {
  id: number;
  code: string;
  name: string;
}
export interface CityRecord {
  id: number;
  name: string;
  code: string;
  state_id: number;
}
export interface AreaRecord {
  id: number;
  name: string;
  area_code?: string;
  city_id: number;
}
export interface PostalCodeRecord {
  id: number;
  code: string;
}
export interface SalesAgentRecord {
  id: number;
  first_name: string;
  last_name: string;
  mobile_number: string;
  email?: string | null;
  avatar?: string | null;
  postalcode_ids: number[];
}
export interface DeliveryAgentRecord {
  id: number;
  first_name: string;
  last_name: string;
  phone_number: string;
}
export interface ProductRecord {
  id: number;
  sku: string;
  name: string;
}
export interface AddressRecord {
  addressline1: string;
  addressline2?: string;
  area_id: number;
  postalcode_id: number;
}
export interface CustomerRecord {
  id: number;
  contact_person_name: string;
  company_name: string;
  display_name: string;
  email?: string | null;
  contactperson_number: string;
  company_phone?: string | null;
  gst_treatment: string;
  gstin?: string | null;
  customer_code?: string | null;
  status: string;
  approval: string;
  salesagent_id?: number | null;
  /** null (or left out, or `[]`) for none. */
  address?: AddressRecord | null | [];
}
export interface OrderItemRecord {
  product_id: number;
  quantity: number;
  price: number;
}
export interface OrderStatusRecord {
  name: OrderStatusName;
  /** A date-time; one without an offset is taken as UTC. */
  at: string;
}
export interface InvoiceRecord {
  id: number;
  invoice_number: string;
  date: string;
  due_date: string;
  total_amount: number;
  discount_amount: number;
  returned_amount: number;
  invoice_amount: number;
  cgst: number;
  sgst: number;
  igst: number;
}
export interface OrderRecord {
  id: number;
  order_no: string;
  customer_id: number;
  salesagent_id?: number | null;
  deliveryagent_id?: number | null;
  date: string;
  item_total_amount: number;
  discount_amount: number;
  return_total_amount: number;
  billable_amount: number;
  items: OrderItemRecord[];
  statuses?: OrderStatusRecord[];
  invoices?: InvoiceRecord[];
}

/** The `.json` form of a dataset: every member optional (a file may carry only orders, say). */
export interface Dataset {
  states?: StateRecord[];
  cities?: CityRecord[];
  areas?: AreaRecord[];
  postal_codes?: PostalCodeRecord[];
  sales_agents?: SalesAgentRecord[];
  delivery_agents?: DeliveryAgentRecord[];
  products?: ProductRecord[];
  customers?: CustomerRecord[];
  orders?: OrderRecord[];
}

export const MEMBER_OF = {
  state: "states",
  city: "cities",
  area: "areas",
  postal_code: "postal_codes",
  sales_agent: "sales_agents",
  delivery_agent: "delivery_agents",
  product: "products",
  customer: "customers",
  order: "orders",
} as const satisfies Record<RecordType, keyof Dataset>;
