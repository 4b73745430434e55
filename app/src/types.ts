// The records of the book as the app reads them (docs/specification.md section 8: a customer as
// GET /customers serves it, an order as GET /orders does); only the fields the screens show.

export interface Address {
  addressline1: string;
  addressline2: string;
  area: { id: number; name: string; area_code: string; city: { name: string; state: { name: string } } };
  postalcode: { id: number; code: string };
}

export interface Customer {
  id: number;
  contact_person_name: string;
  company_name: string;
  display_name: string;
  email: string | null;
  contactperson_number: string;
  company_phone: string | null;
  gst_treatment: string;
  gstin: string | null;
  customer_code: string | null;
  status: string;
  approval: string;
  address: Address | [];
}

export interface Order {
  id: number;
  order_no: string;
  date: string;
  billable_amount: number;
  customer: { id: number };
  laststatus: { name: string } | null;
  invoices: { id: number; invoice_number: string; date: string; invoice_amount: number }[];
}

/** The key this phone holds: its secret is used only in the Authorization header. */
export interface StoredKey {
  id: string;
  secret: string;
  agent_id: number | null;
  name: string;
}

/** POST /customers/create's parameters that the agent sets (the sales agent is the key's own). */
export interface ShopParams {
  company_name: string;
  contactpersons_name: string;
  mobile_number: string;
  address: string;
  area_id: number;
  /** null while the PIN code is unknown offline: looked up before the shop is sent. */
  postalcode_id: number | null;
  pincode: string;
  gst_treatment: "Registered" | "Unregistered";
  gstin: string;
}

/** A shop saved on the phone, waiting to be sent. */
export interface OutboxEntry {
  seq?: number;
  idempotencyKey: string;
  params: ShopParams;
  /** The agent whose book it was saved in. */
  agentId: number | null;
  /** waiting: to send; refused: the service's words in `problem`; confirm: saved under another agent. */
  state: "waiting" | "refused" | "confirm";
  problem?: string;
  /** A 409's customer with this number: the shop itself when an earlier answer was lost (engine.ts). */
  conflictWith?: number;
  savedAt: string;
}

export interface Area {
  id: number;
  name: string;
}
