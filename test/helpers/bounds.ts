// The reading bounds of docs/specification.md section 4 (cost), from what an answer holds: the
// tests compare a page's d1rows (Server-Timing) with them.
import { env } from "cloudflare:workers";
import type { CallResult } from "./http.ts";

/** A customers, postal codes or sales agents page reads at most 8 rows per item it answers, plus 10. */
export const listBound = (items: number) => 8 * items + 10;

/** How many statuses these orders have; the answer carries the last one only. */
async function statusesOf(ids: number[]): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM order_statuses WHERE order_id IN (SELECT value FROM json_each(?))",
  )
    .bind(JSON.stringify(ids))
    .first<{ n: number }>();
  return row!.n;
}

/** An orders page reads at most 4 rows per order, line, status and invoice it holds, plus 10. */
export async function ordersBound(res: CallResult): Promise<number> {
  const orders = res.body.data.orders as { id: number; products: unknown[]; invoices: unknown[] }[];
  const lines = orders.reduce((n, o) => n + o.products.length, 0);
  const invoices = orders.reduce((n, o) => n + o.invoices.length, 0);
  const statuses = orders.length ? await statusesOf(orders.map((o) => o.id)) : 0;
  return 4 * (orders.length + lines + statuses + invoices) + 10;
}
