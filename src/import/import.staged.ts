// The tables an import writes as staging copies: columns from the drizzle schema, and how each moves into its table.
import { getTableColumns, type InferInsertModel } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import * as schema from "../../drizzle/schema.ts";
import type { RecordType } from "./import.format.ts";
import { STAGING_PREFIX, type StagedSql } from "./import.queries.ts";

/** Where a staged row came from (the record's `where`), for errors found after streaming. */
interface Source {
  src: string;
}

/** The row each staged table takes (drizzle's insert shape, plus the source for checked tables). */
export interface StagedRows {
  states: InferInsertModel<typeof schema.states>;
  cities: InferInsertModel<typeof schema.cities>;
  areas: InferInsertModel<typeof schema.areas>;
  postal_codes: InferInsertModel<typeof schema.postalCodes>;
  sales_agents: InferInsertModel<typeof schema.salesAgents>;
  sales_agent_postal_codes: InferInsertModel<typeof schema.salesAgentPostalCodes>;
  delivery_agents: InferInsertModel<typeof schema.deliveryAgents>;
  products: InferInsertModel<typeof schema.products>;
  customers: InferInsertModel<typeof schema.customers> & Source;
  customer_addresses: InferInsertModel<typeof schema.customerAddresses>;
  orders: InferInsertModel<typeof schema.orders> & Source;
  order_items: InferInsertModel<typeof schema.orderItems>;
  order_statuses: InferInsertModel<typeof schema.orderStatuses>;
  /** `pos`: the invoice's index in its order's `invoices`. */
  invoices: InferInsertModel<typeof schema.invoices> & Source & { pos: number };
}
export type StagedTable = keyof StagedRows;

/** What validating a record needs from the import under way. */
export interface RecordSink {
  /** Records that the file gives this id to a `kind`; false when it already did. */
  claim(kind: RecordType | "invoice", id: number): boolean;
  /** True when `id` is a `type` earlier in the file or in the database. */
  exists(type: RecordType, id: number): boolean;
  row<K extends StagedTable>(table: K, row: StagedRows[K]): void;
}

interface TableRule {
  table: Parameters<typeof getTableColumns>[0];
  /** Upserted by id; the unique column, if any, is checked against the file and the database. */
  unique?: string;
  /** A child set that the file lists whole per parent: unlisted rows deleted, the others upserted by primary key. */
  childOf?: { parent: StagedTable; column: string };
  /** Staging-only columns (not copied to the live table). */
  extra?: string[];
  /** Upserted by id, and owned by a parent: the parent's rows the file no longer lists are deleted. */
  ownedBy?: { parent: StagedTable; column: string };
}

// In the order the live tables are written, so that every foreign key holds at each statement.
const RULES: Record<StagedTable, TableRule> = {
  states: { table: schema.states },
  cities: { table: schema.cities },
  areas: { table: schema.areas },
  postal_codes: { table: schema.postalCodes },
  sales_agents: { table: schema.salesAgents },
  sales_agent_postal_codes: {
    table: schema.salesAgentPostalCodes,
    childOf: { parent: "sales_agents", column: "sales_agent_id" },
  },
  delivery_agents: { table: schema.deliveryAgents },
  products: { table: schema.products },
  customers: { table: schema.customers, unique: "phone_key", extra: ["src"] },
  customer_addresses: { table: schema.customerAddresses, childOf: { parent: "customers", column: "customer_id" } },
  orders: { table: schema.orders, unique: "order_no", extra: ["src"] },
  order_items: { table: schema.orderItems, childOf: { parent: "orders", column: "order_id" } },
  order_statuses: { table: schema.orderStatuses, childOf: { parent: "orders", column: "order_id" } },
  invoices: {
    table: schema.invoices,
    unique: "invoice_number",
    extra: ["src", "pos"],
    ownedBy: { parent: "orders", column: "order_id" },
  },
};

export interface StagedSpec extends StagedSql {
  name: StagedTable;
  /** Keys of the row object, in column order (live columns, then extras). */
  keys: string[];
}

export const SPECS: StagedSpec[] = (Object.keys(RULES) as StagedTable[]).map((name) => {
  const rule = RULES[name];
  const live = Object.entries(getTableColumns(rule.table));
  const extra = rule.extra ?? [];
  const composite = getTableConfig(rule.table).primaryKeys[0];
  const key = composite
    ? composite.columns.map((c) => c.name)
    : live.filter(([, c]) => c.primary).map(([, c]) => c.name);
  return {
    name,
    staging: STAGING_PREFIX + name,
    keys: [...live.map(([key]) => key), ...extra],
    columns: live.map(([, column]) => column.name),
    key,
    extra,
    unique: rule.unique,
    childOf: rule.childOf && { parent: STAGING_PREFIX + rule.childOf.parent, column: rule.childOf.column },
    ownedBy: rule.ownedBy && { parent: STAGING_PREFIX + rule.ownedBy.parent, column: rule.ownedBy.column },
  };
});

export const SPEC_OF = Object.fromEntries(SPECS.map((s) => [s.name, s])) as Record<StagedTable, StagedSpec>;
