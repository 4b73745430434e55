// The importer's one error: it names the record (type, id, where in the file) and the field.
import type { RecordType } from "./import.format.ts";

export class ImportError extends Error {
  override readonly name = "ImportError";

  constructor(
    /** What is wrong, e.g. "missing" or "must be an integer". */
    readonly problem: string,
    /** Where the record is: "line 12", "customers[3]", or a member name or "file". */
    readonly where: string,
    readonly type?: RecordType,
    readonly id?: number,
    /** The field's path within the record, e.g. "items[0].product_id". */
    readonly field?: string,
  ) {
    super(describe(problem, where, type, id, field));
  }
}

// "order 5 at line 12, field items[0].product_id: no product 9 earlier in the file or in the database"
function describe(problem: string, where: string, type?: RecordType, id?: number, field?: string): string {
  const record = type ? `${type}${id === undefined ? "" : ` ${id}`} at ${where}` : where;
  return `${record}${field ? `, field ${field}` : ""}: ${problem}`;
}
