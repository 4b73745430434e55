// The records of the book as the app reads them (docs/specification.md section 8: a customer as
// GET /customers serves it, an order as GET /orders does); only the fields the screens show.

export type { Address, Customer, Order } from "./service.ts";

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
