// `npm run bench -- sync-import`: what imports cost the sync change log (docs/performance.md). One agent's
// book of 1,500 customers and 15,000 orders, imported into a fresh local D1 through the importer
// itself; then the same file again (rows written: 0), a file that changes 1% of the orders, and a
// city renamed that 10,000 of the records show (1,000 customers and their 9,000 orders). Rows read
// are D1's own rows_read over every statement of the import, staging included.
import type { Dataset } from "../../src/import/importer.ts";
import { Meter, meterD1 } from "../../src/platform/lib/meter.ts";
import { tempFolder } from "../lib/temp-folder.ts";
import { CUSTOMERS, dataset, IN_CITY, openBookState, ORDERS } from "./sync-book.ts";

export async function syncImport(): Promise<string[]> {
  const lines: string[] = [];
  const state = tempFolder("sync-import");
  const { platform, importDataset } = await openBookState(state.path);
  const db = platform.env.DB;
  const logged = async () =>
    (await db.prepare("SELECT count(*) AS n, coalesce(max(seq), 0) AS top FROM sync_changes").first<{
      n: number;
      top: number;
    }>())!;
  const step = async (name: string, data: Dataset) => {
    const before = await logged();
    const meter = new Meter();
    const started = performance.now();
    const summary = await importDataset(meterD1(db, meter), data);
    const seconds = (performance.now() - started) / 1000;
    const { n } = (await db
      .prepare("SELECT count(*) AS n FROM sync_changes WHERE seq > ?1")
      .bind(before.top)
      .first<{ n: number }>())!;
    lines.push(`| ${name} | ${summary.rowsWritten} | ${n} | ${meter.d1RowsRead} | ${seconds.toFixed(2)} |`);
  };
  try {
    lines.push(
      `One book: ${CUSTOMERS} customers, ${ORDERS} orders (D1's rows_written; local D1 through wrangler's proxy)`,
      "",
      "| import | rows written | log entries written | rows read | seconds |",
      "|---|---|---|---|---|",
    );
    const file = dataset("Mumbai");
    await step("import into an empty database", file);
    await step("the same file again", file);
    const onePercent = dataset("Mumbai");
    for (let i = 0; i < ORDERS; i += 100) onePercent.orders![i]!.billable_amount = 99;
    await step("1% of the orders changed (150)", onePercent);
    const renamed = dataset("Bombay");
    for (let i = 0; i < ORDERS; i += 100) renamed.orders![i]!.billable_amount = 99;
    await step(`the city renamed (shown by ${IN_CITY + IN_CITY * 9} records)`, renamed);
  } finally {
    await platform.dispose();
    state.remove();
  }
  return lines;
}
