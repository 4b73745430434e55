// The pages' statements in SQLite alone: Node's own SQLite on the API's local D1 file, so that SQLite's share of a page
// shows apart from the rest of the request's (docs/performance.md, "A LIMIT that is not a parameter").
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { customersPageStatements } from "../../src/customers/customers.queries.ts";
import { ordersPageStatements } from "../../src/orders/orders.queries.ts";
import { d1FileOf, median, num, tableHead } from "./harness.ts";

/** The statement as it was before rowLimit(): its LIMIT a bare parameter, which SQLite compiles again at each binding. */
const withBareLimit = (sql: string) => sql.replace(/limit cast\((\?\d*) as integer\)/gi, "limit $1");

/** Microseconds a call of `fn`: the median of `rounds` rounds of `calls` calls. */
function microseconds(fn: () => unknown, rounds = 7, calls = 300): number {
  for (let i = 0; i < calls; i++) fn();
  const each: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    each.push(Number(process.hrtime.bigint() - start) / 1e3 / calls);
  }
  return median(each);
}

const sqlOf = (bound: { sql: string; params: unknown[] }): [string, unknown[]] => [bound.sql, bound.params];

/** Report lines: each page's statement run as D1 runs it (compiled once), and run with a bare LIMIT. */
export function statementFigures(state: string, phone: string): string[] {
  const db = new DatabaseSync(d1FileOf(state), { readOnly: true });
  try {
    const statements: [label: string, sql: string, params: unknown[]][] = [
      ["one-query floor (`select 1`)", "select 1 as one", []],
      ["GET /customers (10)", ...sqlOf(customersPageStatements({ count: 10, skip: 0 })[0])],
      [
        "GET /orders (10), the busiest customer",
        ...sqlOf(ordersPageStatements({ phoneKey: phone }, { count: 10, skip: 0 })[0]),
      ],
    ];
    const version = (db.prepare("select sqlite_version() as v").get() as { v: string }).v;
    const rows = statements.map(([label, sql, params]) => {
      // D1 binds every JavaScript number as a REAL, and so does node:sqlite.
      const values = params as SQLInputValue[];
      const once = db.prepare(sql);
      const run = microseconds(() => once.all(...values));
      const bare = withBareLimit(sql);
      if (bare === sql) return `| ${label} | ${num(sql.length)} | ${num(run, 0)} | | |`;
      const again = db.prepare(bare);
      const bareRun = microseconds(() => again.all(...values));
      return `| ${label} | ${num(sql.length)} | ${num(run, 0)} | ${num(bareRun, 0)} | ${num(bareRun - run, 0)} |`;
    });
    return [
      `Node's own SQLite (${version}, \`node:sqlite\`) on the large dataset's D1 file, read-only; medians of 7 rounds of 300 calls, µs a call.`,
      "workerd keeps each statement compiled by its SQL text, so a page pays the run only, unless its LIMIT is a bare " +
        "parameter: SQLite then compiles the statement again at each binding (the statement as it was before rowLimit()).",
      "",
      ...tableHead("| statement | SQL characters | run µs | run µs with a bare LIMIT | compiling again µs |"),
      ...rows,
    ];
  } finally {
    db.close();
  }
}
