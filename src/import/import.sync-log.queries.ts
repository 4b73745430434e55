// An import's part of the sync log (section 8): the triggers' floor, and marks for records showing a changed lookup.
// SQL text: statements composed per lookup kind and per chunk of ids.
import { STAGING_PREFIX } from "./import.queries.ts";

/** Records marked by one statement at most (and rows of its driving table read). */
export const MARK_CHUNK = 5000;

// The columns of each lookup that records show (the customers' and orders' serializers); no other column marks.
const SHOWN = {
  states: ["code", "name"],
  cities: ["name", "code", "state_id"],
  areas: ["name", "area_code", "city_id"],
  postal_codes: ["code"],
  sales_agents: ["first_name", "last_name", "mobile_number", "email", "avatar"],
  delivery_agents: ["first_name", "last_name", "phone_number"],
  products: ["sku", "name"],
} as const;

type Kind = "area" | "postal_code" | "sales_agent" | "delivery_agent" | "product";

/** The staged lookups whose shown fields differ from the live row (read before the moves). */
function changed(table: keyof typeof SHOWN): string {
  const differs = SHOWN[table].map((c) => `t.${c} IS NOT s.${c}`).join(" OR ");
  return `SELECT s.id FROM ${STAGING_PREFIX}${table} AS s JOIN ${table} AS t ON t.id = s.id WHERE ${differs}`;
}

// A changed state or city changes what its areas show: an address shows its area's whole group.
const SHOWN_CHANGES =
  `SELECT 'area' AS kind, id FROM (${changed("areas")} UNION SELECT id FROM areas WHERE city_id IN ` +
  `(${changed("cities")} UNION SELECT id FROM cities WHERE state_id IN (${changed("states")}))) ` +
  `UNION ALL SELECT 'postal_code', id FROM (${changed("postal_codes")}) ` +
  `UNION ALL SELECT 'sales_agent', id FROM (${changed("sales_agents")}) ` +
  `UNION ALL SELECT 'delivery_agent', id FROM (${changed("delivery_agents")}) ` +
  `UNION ALL SELECT 'product', id FROM (${changed("products")})`;

/** The changed lookups' ids, kept from the plan to the final batch: a staging table like the others. */
export const SHOWN_TABLE = `${STAGING_PREFIX}shown_lookups`;
const FLOOR = "sync_import_floor";

export interface SyncLogPlan {
  /** The kinds of lookup that the file changes a shown field of. */
  kinds: Kind[];
  /** The first id of each chunk of customers and of orders (empty when none needs marking). */
  customerChunks: number[];
  orderChunks: number[];
}

/** Before the final batch: changed lookups' ids into SHOWN_TABLE (live rows still old), their kinds, the chunks'
 * starts; only imports write lookups, so it holds until the batch (new records fall in the open last chunk). */
export async function planSyncLog(db: D1Database, chunk = MARK_CHUNK): Promise<SyncLogPlan> {
  const [, , found] = await db.batch<{ kind: Kind }>([
    db.prepare(`DROP TABLE IF EXISTS ${SHOWN_TABLE}`),
    db.prepare(`CREATE TABLE ${SHOWN_TABLE} AS ${SHOWN_CHANGES}`),
    db.prepare(`SELECT DISTINCT kind FROM ${SHOWN_TABLE}`),
  ]);
  const kinds = found!.results.map((r) => r.kind);
  if (kinds.length === 0) return { kinds, customerChunks: [], orderChunks: [] };
  const address = kinds.includes("area") || kinds.includes("postal_code");
  const [customers, orders] = await db.batch<{ id: number }>([
    db.prepare(chunkStarts(address ? "customers" : null, chunk)),
    db.prepare(chunkStarts("orders", chunk)),
  ]);
  return {
    kinds,
    customerChunks: customers!.results.map((r) => r.id),
    orderChunks: orders!.results.map((r) => r.id),
  };
}

// Every chunk-th id of the table and its staged records, so added records are chunked too.
function chunkStarts(table: "customers" | "orders" | null, chunk: number): string {
  if (table === null) return "SELECT NULL AS id WHERE false";
  const ids = `SELECT id FROM ${table} UNION SELECT id FROM ${STAGING_PREFIX}${table}`;
  return (
    `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM (${ids})) ` +
    `WHERE (n - 1) % ${chunk} = 0 ORDER BY id`
  );
}

const shownIds = (kind: Kind) => `(SELECT id FROM ${SHOWN_TABLE} WHERE kind = '${kind}')`;

/** `column >= start AND column < next start`, open at both ends so that every id is in a chunk. */
function ranges(column: string, starts: number[]): string[] {
  return starts.map((_, i) => {
    const bounds = [
      i > 0 ? `${column} >= ${starts[i]}` : null,
      i + 1 < starts.length ? `${column} < ${starts[i + 1]}` : null,
    ];
    return bounds.filter((b) => b !== null).join(" AND ") || "true";
  });
}

function customerMarks(plan: SyncLogPlan): string[] {
  const shows = [
    plan.kinds.includes("area") ? `a.area_id IN ${shownIds("area")}` : null,
    plan.kinds.includes("postal_code") ? `a.postalcode_id IN ${shownIds("postal_code")}` : null,
  ].filter((s) => s !== null);
  if (shows.length === 0) return [];
  return ranges("c.id", plan.customerChunks).map(
    (range) =>
      "INSERT INTO sync_mark (book, kind, record_id, deleted) " +
      "SELECT c.salesagent_id, 'customer', c.id, 0 FROM customers AS c " +
      "JOIN customer_addresses AS a ON a.customer_id = c.id " +
      `WHERE ${range} AND c.salesagent_id IS NOT NULL AND (${shows.join(" OR ")})`,
  );
}

function orderMarks(plan: SyncLogPlan): string[] {
  const address = plan.kinds.includes("area") || plan.kinds.includes("postal_code");
  const shows = [
    plan.kinds.includes("area") ? `a.area_id IN ${shownIds("area")}` : null,
    plan.kinds.includes("postal_code") ? `a.postalcode_id IN ${shownIds("postal_code")}` : null,
    plan.kinds.includes("sales_agent") ? `o.salesagent_id IN ${shownIds("sales_agent")}` : null,
    plan.kinds.includes("delivery_agent") ? `o.deliveryagent_id IN ${shownIds("delivery_agent")}` : null,
    plan.kinds.includes("product")
      ? `EXISTS (SELECT 1 FROM order_items AS i WHERE i.order_id = o.id AND i.product_id IN ${shownIds("product")})`
      : null,
  ].filter((s) => s !== null);
  return ranges("o.id", plan.orderChunks).map(
    (range) =>
      "INSERT INTO sync_mark (book, kind, record_id, deleted) " +
      "SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o " +
      "JOIN customers AS c ON c.id = o.customer_id " +
      (address ? "LEFT JOIN customer_addresses AS a ON a.customer_id = c.id " : "") +
      `WHERE ${range} AND c.salesagent_id IS NOT NULL AND (${shows.join(" OR ")})`,
  );
}

/** The final batch's part: `open` sets the floor, `after` marks in chunks, `close` removes the floor. */
export function syncLogParts(
  db: D1Database,
  plan: SyncLogPlan,
): Record<"open" | "after" | "close", D1PreparedStatement[]> {
  return {
    open: [db.prepare(`INSERT INTO ${FLOOR} (seq) SELECT coalesce(max(seq), 0) FROM sync_changes`)],
    after: [...customerMarks(plan), ...orderMarks(plan)].map((sql) => db.prepare(sql)),
    close: [db.prepare(`DELETE FROM ${FLOOR}`)],
  };
}
