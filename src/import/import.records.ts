// One record of the dataset format (import.format.ts) validated into staged rows, in workerd and Node alike.
import { normalizePhone } from "../platform/lib/phone.ts";
import { ORDER_STATUS_NAMES } from "../orders/orders.schemas.ts";
import { ImportError } from "./import.errors.ts";
import { MEMBER_OF, RECORD_TYPES, type Dataset, type RecordType } from "./import.format.ts";
import { type Fail, Fields } from "./import.fields.ts";
import type { RecordSink } from "./import.staged.ts";

/** A record as read from a file: its type, its still-unchecked value and where it was ("line 12"). */
export interface RawRecord {
  type: RecordType;
  value: unknown;
  where: string;
}

const TYPE_OF_MEMBER = new Map<string, RecordType>(RECORD_TYPES.map((t) => [MEMBER_OF[t], t]));

export function recordTypeOfMember(member: string): RecordType | undefined {
  return TYPE_OF_MEMBER.get(member);
}

export function isRecordType(value: unknown): value is RecordType {
  return typeof value === "string" && (RECORD_TYPES as readonly string[]).includes(value);
}

/** In RECORD_TYPES order, whatever the object's member order: each type refers only to earlier ones. */
export function* datasetRecords(dataset: Dataset): Generator<RawRecord> {
  for (const member of Object.keys(dataset)) {
    if (!TYPE_OF_MEMBER.has(member)) {
      throw new ImportError(`unknown member; the members are ${[...TYPE_OF_MEMBER.keys()].join(", ")}`, member);
    }
  }
  for (const type of RECORD_TYPES) {
    const member = MEMBER_OF[type];
    const list: unknown = dataset[member];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new ImportError("must be an array of records", member);
    for (let i = 0; i < list.length; i++) yield { type, value: list[i], where: `${member}[${i}]` };
  }
}

const STATUS_NAMES: ReadonlySet<string> = new Set(ORDER_STATUS_NAMES);

export function parseRecord(raw: RawRecord, sink: RecordSink): void {
  if (typeof raw.value !== "object" || raw.value === null || Array.isArray(raw.value)) {
    throw new ImportError("must be a JSON object", raw.where, raw.type);
  }
  const value = raw.value as Record<string, unknown>;
  const failing =
    (id: number | undefined): Fail =>
    (field, problem) => {
      throw new ImportError(problem, raw.where, raw.type, id, field);
    };
  const id = new Fields(value, "", failing(undefined)).int("id");
  const fail = failing(id);
  const f = new Fields(value, "", fail);
  if (!sink.claim(raw.type, id)) fail("id", `another ${raw.type} in the file has id ${id}`);
  const ref = <V extends number | null>(field: string, type: RecordType, value: V): V => {
    if (value !== null && !sink.exists(type, value)) {
      fail(field, `no ${type} ${value} earlier in the file or in the database`);
    }
    return value;
  };
  PARSERS[raw.type](f, id, raw.where, ref, sink);
}

type Ref = <V extends number | null>(field: string, type: RecordType, value: V) => V;
type Parser = (f: Fields, id: number, where: string, ref: Ref, sink: RecordSink) => void;

const PARSERS: Record<RecordType, Parser> = {
  state(f, id, _where, _ref, sink) {
    sink.row("states", { id, code: f.str("code"), name: f.str("name") });
  },
  city(f, id, _where, ref, sink) {
    const row = { id, name: f.str("name"), code: f.str("code"), stateId: ref("state_id", "state", f.int("state_id")) };
    sink.row("cities", row);
  },
  area(f, id, _where, ref, sink) {
    const row = {
      id,
      name: f.str("name"),
      areaCode: f.strOr("area_code", ""),
      cityId: ref("city_id", "city", f.int("city_id")),
    };
    sink.row("areas", row);
  },
  postal_code(f, id, _where, _ref, sink) {
    sink.row("postal_codes", { id, code: f.str("code") });
  },
  sales_agent(f, id, _where, ref, sink) {
    const row = {
      id,
      firstName: f.str("first_name"),
      lastName: f.str("last_name"),
      mobileNumber: f.str("mobile_number"),
      email: f.nullableStr("email"),
      avatar: f.nullableStr("avatar"),
    };
    const postalCodeIds = new Set<number>();
    f.ints("postalcode_ids").forEach((postalCodeId, i) => {
      postalCodeIds.add(ref(`postalcode_ids[${i}]`, "postal_code", postalCodeId));
    });
    sink.row("sales_agents", row);
    // A pincode listed twice is served once: the set keeps the link table's key unique.
    for (const postalCodeId of postalCodeIds) sink.row("sales_agent_postal_codes", { salesAgentId: id, postalCodeId });
  },
  delivery_agent(f, id, _where, _ref, sink) {
    sink.row("delivery_agents", {
      id,
      firstName: f.str("first_name"),
      lastName: f.str("last_name"),
      phoneNumber: f.str("phone_number"),
    });
  },
  product(f, id, _where, _ref, sink) {
    sink.row("products", { id, sku: f.str("sku"), name: f.str("name") });
  },
  customer(f, id, where, ref, sink) {
    const number = f.str("contactperson_number");
    const row = {
      id,
      contactPersonName: f.str("contact_person_name"),
      companyName: f.str("company_name"),
      displayName: f.str("display_name"),
      email: f.nullableStr("email"),
      contactpersonNumber: number,
      // Landlines and odd numbers are kept; only the lookup key is derived (docs/specification.md section 5).
      phoneKey: normalizePhone(number) || null,
      companyPhone: f.nullableStr("company_phone"),
      gstTreatment: f.str("gst_treatment"),
      gstin: f.nullableStr("gstin"),
      customerCode: f.nullableStr("customer_code"),
      status: f.str("status"),
      approval: f.str("approval"),
      salesagentId: ref("salesagent_id", "sales_agent", f.nullableInt("salesagent_id")),
      // An "api" customer it may replace only when it is the same shop (docs/specification.md section 7).
      origin: "import" as const,
      src: where,
    };
    const address = f.nullableObject("address");
    const addressRow = address && {
      customerId: id,
      addressline1: address.str("addressline1"),
      addressline2: address.strOr("addressline2", ""),
      areaId: ref("address.area_id", "area", address.int("area_id")),
      postalcodeId: ref("address.postalcode_id", "postal_code", address.int("postalcode_id")),
    };
    sink.row("customers", row);
    if (addressRow) sink.row("customer_addresses", addressRow);
  },
  order(f, id, where, ref, sink) {
    const row = {
      id,
      orderNo: f.str("order_no"),
      customerId: ref("customer_id", "customer", f.int("customer_id")),
      salesagentId: ref("salesagent_id", "sales_agent", f.nullableInt("salesagent_id")),
      deliveryagentId: ref("deliveryagent_id", "delivery_agent", f.nullableInt("deliveryagent_id")),
      date: f.date("date"),
      itemTotalAmount: f.num("item_total_amount"),
      discountAmount: f.num("discount_amount"),
      returnTotalAmount: f.num("return_total_amount"),
      billableAmount: f.num("billable_amount"),
      src: where,
    };
    const items = f.objects("items").map((item, i) => ({
      orderId: id,
      lineNo: i + 1,
      productId: ref(item.path("product_id"), "product", item.int("product_id")),
      quantity: item.int("quantity"),
      price: item.num("price"),
    }));
    const statuses = f.objects("statuses", true).map((status, i) => ({
      orderId: id,
      // The position breaks ties between equal times (docs/specification.md section 5, GET /orders).
      seq: i + 1,
      name: status.oneOf("name", STATUS_NAMES),
      at: status.dateTime("at"),
    }));
    const invoices = f.objects("invoices", true).map((invoice, i) => {
      const invoiceId = invoice.int("id");
      if (!sink.claim("invoice", invoiceId)) invoice.reject("id", `another invoice in the file has id ${invoiceId}`);
      return {
        id: invoiceId,
        orderId: id,
        invoiceNumber: invoice.str("invoice_number"),
        date: invoice.date("date"),
        dueDate: invoice.date("due_date"),
        totalAmount: invoice.num("total_amount"),
        discountAmount: invoice.num("discount_amount"),
        returnedAmount: invoice.num("returned_amount"),
        invoiceAmount: invoice.num("invoice_amount"),
        cgst: invoice.num("cgst"),
        sgst: invoice.num("sgst"),
        igst: invoice.num("igst"),
        src: where,
        pos: i,
      };
    });
    sink.row("orders", row);
    for (const item of items) sink.row("order_items", item);
    for (const status of statuses) sink.row("order_statuses", status);
    for (const invoice of invoices) sink.row("invoices", invoice);
  },
};
