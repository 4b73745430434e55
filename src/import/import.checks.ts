// Uniqueness checks over the whole file and the database, on the staging tables once the file has streamed.
import { ImportError } from "./import.errors.ts";
import type { RecordType } from "./import.format.ts";
import { uniqueQueries } from "./import.queries.ts";
import { SPEC_OF, type StagedTable } from "./import.staged.ts";

interface UniqueCheck {
  table: StagedTable;
  column: string;
  /** The record that carries the row: the row itself, or (for an invoice) its order. */
  type: RecordType;
  owner: string;
  field: (pos: number | null) => string;
  problem: (value: string, other: number) => string;
}

const CHECKS: UniqueCheck[] = [
  {
    table: "customers",
    column: "phone_key",
    type: "customer",
    owner: "id",
    field: () => "contactperson_number",
    problem: (value, other) => `normalizes to ${value}, as the number of customer ${other} does`,
  },
  {
    table: "orders",
    column: "order_no",
    type: "order",
    owner: "id",
    field: () => "order_no",
    problem: (value, other) => `${JSON.stringify(value)} is also the order_no of order ${other}`,
  },
  {
    table: "invoices",
    column: "invoice_number",
    type: "order",
    owner: "order_id",
    field: (pos) => `invoices[${pos}].invoice_number`,
    problem: (value, other) => `${JSON.stringify(value)} is also the invoice_number of invoice ${other}`,
  },
];

interface Hit {
  owner: number;
  src: string;
  pos: number | null;
  value: string;
  other: number;
}

export async function findConflict(db: D1Database): Promise<ImportError | null> {
  const results = await db.batch<Hit>(
    CHECKS.flatMap((check) => {
      const sql = { table: SPEC_OF[check.table], column: check.column, owner: check.owner };
      return [uniqueQueries.inFile(db, sql), uniqueQueries.againstDatabase(db, sql)];
    }),
  );
  for (let i = 0; i < results.length; i++) {
    const hit = results[i]!.results[0];
    if (!hit) continue;
    const check = CHECKS[i >> 1]!;
    const inDatabase = i % 2 === 1 ? " in the database" : "";
    return new ImportError(
      check.problem(hit.value, hit.other) + inDatabase,
      hit.src,
      check.type,
      hit.owner,
      check.field(hit.pos),
    );
  }
  return null;
}
