// Uniqueness checks that need the whole file (a normalized phone number, an order_no, an invoice_number), within it and
// against the database: run on the staging tables once the file has streamed.
import { ImportError } from "./import.errors.ts";
import type { RecordType } from "./import.format.ts";
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
  const queries = CHECKS.flatMap((check) => [inFile(check), againstDatabase(check)]);
  const results = await db.batch<Hit>(queries.map((sql) => db.prepare(sql)));
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

function selected(check: UniqueCheck, row: string, other: string): string {
  const pos = SPEC_OF[check.table].extra.includes("pos") ? `${row}.pos` : "NULL";
  return `${row}.${check.owner} AS owner, ${row}.src AS src, ${pos} AS pos, ${row}.${check.column} AS value, ${other}.id AS other`;
}

// Two rows of the file with one value: names the later one, and the earlier one's id.
function inFile(check: UniqueCheck): string {
  const staging = SPEC_OF[check.table].staging;
  return (
    `SELECT ${selected(check, "a", "b")} FROM (SELECT min(rowid) AS first, max(rowid) AS last FROM ${staging} ` +
    `WHERE ${check.column} IS NOT NULL GROUP BY ${check.column} HAVING count(*) > 1 ORDER BY last LIMIT 1) AS d ` +
    `JOIN ${staging} AS a ON a.rowid = d.last JOIN ${staging} AS b ON b.rowid = d.first`
  );
}

// A row of the database that keeps its value (the file does not give it a new one) and is another id.
function againstDatabase(check: UniqueCheck): string {
  const { staging, name } = SPEC_OF[check.table];
  return (
    `SELECT ${selected(check, "s", "t")} FROM ${staging} AS s JOIN ${name} AS t ON t.${check.column} = s.${check.column} ` +
    `WHERE t.id <> s.id AND t.id NOT IN (SELECT id FROM ${staging}) ORDER BY s.rowid LIMIT 1`
  );
}
