// The product catalogue and sales orders with their lines, status history and invoices. Order ids
// grow with time (dates drift forward with the id, a few back-dated), amounts are computed in paise
// so that totals add up.
import type { OrderStatusName } from "../../src/orders/orders.schemas.ts";
import type { InvoiceRecord, OrderRecord, OrderStatusRecord } from "../../src/import/import.format.ts";
import type { CustomerFacts } from "./customers.ts";
import products from "./products.json" with { type: "json" };
import { Rng } from "./prng.ts";

/**
 * A grocery and household goods distributor's products (products.json: SKU, name, list price in
 * rupees, GST rate in percent each). An order line may carry a negotiated price under the list price.
 */
export const CATALOG = (products as [string, string, number, number][]).map(([sku, name, rupees, gstRate], k) => ({
  id: k + 1,
  sku,
  name,
  pricePaise: rupees * 100,
  gstRate,
}));

/** The last day of the data: fixed, so the dataset never depends on the clock. */
const LAST_ORDER_DAY = Date.UTC(2026, 2, 31);
/** Two years of orders, ending on LAST_ORDER_DAY. */
const ORDER_SPAN_DAYS = 730;
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * 60_000;

const WITH_INVOICE: readonly (readonly OrderStatusName[])[] = [
  ["Placed", "Processed", "Invoice Generated", "Shipment Created", "Delivered"],
  ["Placed", "In Review/Invoice Dept", "Invoice Generated", "Shipment Created", "Delivered"],
  ["Placed", "Invoice Generated", "Shipment Created", "Delivered", "Returned"],
  ["Placed", "Invoice Generated", "Shipment Created", "Undelivered", "Postponed"],
];
const WITHOUT_INVOICE: readonly (readonly OrderStatusName[])[] = [
  ["Placed", "Cancelled"],
  ["Placed", "Processed", "Cancelled"],
  ["Placed", "In Review/Invoice Dept", "Processed", "Postponed"],
  ["Placed", "Processed", "In Review/Invoice Dept", "Postponed", "Cancelled"],
];
const QUANTITIES = [1, 2, 3, 4, 5, 6, 10, 12, 20, 24, 25, 50] as const;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16)}:00Z`;
const rupees = (paise: number) => paise / 100;

/**
 * Customer #1 (the README's example) gets ten orders spread over the whole period, plus two more
 * on the same dates as two of them; among these, one has no status and no invoice, one no sales
 * agent and one no delivery agent, so that even a tiny dataset has each case.
 */
function demoCustomerOrders(orders: number) {
  const indices = new Set<number>();
  const sameDay = new Set<number>();
  const special = new Map<number, string>();
  for (let j = 0; j < 10; j++) {
    const i = Math.floor((j * orders) / 10);
    if (i >= orders) continue;
    indices.add(i);
    if ((j === 2 || j === 6) && i + 1 < orders) {
      indices.add(i + 1);
      sameDay.add(i + 1);
    }
    if (j === 1) special.set(i, "bare");
    if (j === 3) special.set(i, "no-salesagent");
    if (j === 4) special.set(i, "no-deliveryagent");
  }
  return { indices, sameDay, special };
}

/** A multiplier coprime with n: x -> (x * m) mod n scatters the popular customers over all ids. */
function coprimeNear(n: number, target: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let m = Math.max(1, target);
  while (gcd(m, n) !== 1) m++;
  return m;
}

export function* generateOrders(
  rng: Rng,
  plan: { orders: number; customers: number; salesAgents: number; deliveryAgents: number },
  facts: CustomerFacts,
): Generator<OrderRecord> {
  const demo = demoCustomerOrders(plan.orders);
  const scatter = coprimeNear(plan.customers, Math.floor(plan.customers * 0.618) + 1);
  const firstDay = LAST_ORDER_DAY - (ORDER_SPAN_DAYS - 1) * DAY_MS;
  let invoiceId = 0;
  let previous: { customer: number; day: number } | null = null;

  for (let i = 0; i < plan.orders; i++) {
    const id = i + 1;
    let customer: number;
    let day: number;
    if (demo.indices.has(i) && !(demo.sameDay.has(i) && previous?.customer === 1)) {
      customer = 1;
      day = orderDay(rng, i, plan.orders, firstDay);
    } else if ((demo.sameDay.has(i) || rng.chance(0.04)) && previous) {
      // A second order from the same customer on the same day.
      customer = previous.customer;
      day = previous.day;
    } else {
      // Skewed popularity: some customers order often, some never. The half-turn keeps the most
      // popular slot off customer #1, whose orders are set above.
      const rank = Math.floor(plan.customers * Math.pow(rng.next(), 1.5));
      customer = 1 + ((rank * scatter + Math.floor(plan.customers / 2)) % plan.customers);
      day = orderDay(rng, i, plan.orders, firstDay);
    }
    previous = { customer, day };
    const special = demo.special.get(i);

    const lines = orderLines(rng);
    const itemTotal = lines.reduce((sum, l) => sum + l.quantity * l.pricePaise, 0);
    const discount = rng.chance(0.6) ? 0 : Math.round((itemTotal * rng.pick([2, 3, 5, 7.5, 10])) / 100);

    const invoiceCount = special === "bare" ? 0 : rng.weighted([0, 1, 2], [15, 72, 13]);
    const template = rng.pick(invoiceCount > 0 ? WITH_INVOICE : WITHOUT_INVOICE);
    const statusCount = special === "bare" ? 0 : rng.weighted([0, 1, 2, 3, 4, 5], [12, 25, 30, 20, 9, 4]);
    const names = template.slice(0, statusCount);

    let returned = 0;
    if (names.includes("Returned") || rng.chance(0.015)) {
      const line = rng.pick(lines);
      // Never the whole bill: at least a tenth stays billable, so every invoice share stays positive.
      returned = Math.min(rng.int(1, line.quantity) * line.pricePaise, Math.floor((itemTotal - discount) * 0.9));
    }

    const agent = facts.salesAgentId[customer - 1] ?? 0;
    const salesagentId =
      special === "no-salesagent" || rng.chance(0.04)
        ? null
        : agent > 0
          ? agent
          : rng.chance(0.5)
            ? rng.int(1, plan.salesAgents)
            : null;
    const shipped = names.includes("Shipment Created");
    const deliveryagentId =
      special === "no-deliveryagent" || plan.deliveryAgents === 0
        ? null
        : rng.chance(shipped ? 0.95 : 0.6)
          ? rng.int(1, plan.deliveryAgents)
          : null;

    const taxShare =
      lines.reduce((sum, l) => sum + (l.quantity * l.pricePaise * l.item.gstRate) / (100 + l.item.gstRate), 0) /
      itemTotal;
    const invoices: InvoiceRecord[] = [];
    let invoiceDay = day + rng.int(0, 2) * DAY_MS;
    let totalLeft = itemTotal;
    let discountLeft = discount;
    let returnedLeft = returned;
    for (let k = 0; k < invoiceCount; k++) {
      const last = k === invoiceCount - 1;
      const share = last ? 1 : rng.int(40, 70) / 100;
      const total = last ? totalLeft : Math.round(itemTotal * share);
      const disc = last ? discountLeft : Math.round(discount * share);
      const ret = last ? returnedLeft : Math.round(returned * share);
      totalLeft -= total;
      discountLeft -= disc;
      returnedLeft -= ret;
      const amount = total - disc - ret;
      const tax = Math.round(amount * taxShare);
      const half = Math.round(tax / 2);
      const intra = facts.intraState[customer - 1] === 1;
      invoiceId++;
      invoices.push({
        id: invoiceId,
        invoice_number: `INV-${String(invoiceId).padStart(6, "0")}`,
        date: isoDay(invoiceDay),
        due_date: isoDay(invoiceDay + rng.pick([15, 30, 30, 45]) * DAY_MS),
        total_amount: rupees(total),
        discount_amount: rupees(disc),
        returned_amount: rupees(ret),
        invoice_amount: rupees(amount),
        cgst: intra ? rupees(half) : 0,
        sgst: intra ? rupees(half) : 0,
        igst: intra ? 0 : rupees(tax),
      });
      invoiceDay += rng.int(1, 10) * DAY_MS;
    }

    yield {
      id,
      order_no: `SO-${String(id).padStart(6, "0")}`,
      customer_id: customer,
      salesagent_id: salesagentId,
      deliveryagent_id: deliveryagentId,
      date: isoDay(day),
      item_total_amount: rupees(itemTotal),
      discount_amount: rupees(discount),
      return_total_amount: rupees(returned),
      billable_amount: rupees(itemTotal - discount - returned),
      items: lines.map((l) => ({ product_id: l.item.id, quantity: l.quantity, price: rupees(l.pricePaise) })),
      statuses: statusHistory(rng, names, day),
      invoices,
    };
  }
}

/** Dates drift forward with the order id over the period; some orders are entered a day or two late. */
function orderDay(rng: Rng, index: number, orders: number, firstDay: number): number {
  const offset = Math.floor((index * ORDER_SPAN_DAYS) / Math.max(1, orders));
  const backdated = rng.chance(0.3) ? rng.int(1, 2) : 0;
  return firstDay + Math.max(0, offset - backdated) * DAY_MS;
}

/** One to four distinct products, three on average. */
function orderLines(rng: Rng) {
  const count = rng.weighted([1, 2, 3, 4], [10, 20, 30, 40]);
  return rng.sample(CATALOG, count).map((item) => {
    // A negotiated price for some lines: a few percent under list.
    const pricePaise = rng.chance(0.15) ? Math.round((item.pricePaise * rng.int(90, 98)) / 100) : item.pricePaise;
    return { item, quantity: rng.pick(QUANTITIES), pricePaise };
  });
}

/** Times in business hours (IST), each after the one before; now and then two share a minute. */
function statusHistory(rng: Rng, names: readonly OrderStatusName[], day: number): OrderStatusRecord[] {
  let at = day + rng.int(9 * 60, 19 * 60) * 60_000 - IST_OFFSET_MS;
  return names.map((name, k) => {
    if (k > 0 && !rng.chance(0.02)) at += rng.int(20, 36 * 60) * 60_000;
    return { name, at: isoMinute(at) };
  });
}
