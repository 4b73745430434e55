// The data that `npm run bench` serves: a generated dataset (kept in the temp folder between runs,
// under a name that changes with the generator's code and options), imported with the operator's
// own `npm run db:import` into a fresh state folder.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { type CommandResult, run } from "../lib/processes.ts";

function check(what: string, result: CommandResult): CommandResult {
  if (result.code !== 0)
    throw new Error(`${what} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.trim());
  return result;
}

/** A hash of the dataset generator's code: a cached file made by other code is not reused. */
function generatorVersion(): string {
  const hash = createHash("sha256");
  for (const file of [
    "scripts/make-dataset.ts",
    ...readdirSync("scripts/dataset")
      .sort()
      .map((f) => join("scripts/dataset", f)),
  ]) {
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 12);
}

/** The large dataset's file, generated with `npm run demo:generate` unless the cache has it. */
export async function largeDataset(
  cacheDir: string,
  customers: number,
  orders: number,
): Promise<{ file: string; cached: boolean }> {
  const file = join(cacheDir, `dataset-c${customers}-o${orders}-${generatorVersion()}.jsonl`);
  if (existsSync(file)) return { file, cached: true };
  const partial = `${file}.partial.jsonl`;
  check(
    "npm run demo:generate",
    await run("npm", [
      "run",
      "demo:generate",
      "--",
      "--customers",
      String(customers),
      "--orders",
      String(orders),
      "--out",
      partial,
    ]),
  );
  // Renamed only when complete, so that an interrupted run never leaves a truncated file to reuse.
  renameSync(partial, file);
  return { file, cached: false };
}

/** `npm run db:import -- FILE` into a state folder; returns the importer's summary line. */
export async function importInto(persistDir: string, file: string): Promise<{ summary: string; seconds: number }> {
  const result = check(
    `npm run db:import -- ${file}`,
    await run("npm", ["run", "db:import", "--", file], { PERSIST_DIR: persistDir }),
  );
  const summary = result.stdout.split("\n").find((l) => l.startsWith("Imported")) ?? result.stdout.trim();
  return { summary, seconds: result.seconds };
}

/** Rows of one query on the local D1 of a state folder. */
export async function query<T>(persistDir: string, sql: string): Promise<T[]> {
  const result = check(
    "wrangler d1 execute",
    await run("npx", [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persistDir,
      "--json",
      "--command",
      sql,
    ]),
  );
  const parsed = JSON.parse(result.stdout) as { results: T[] }[];
  return parsed[0]?.results ?? [];
}

export interface Targets {
  /** The normalized phone of the customer with the most orders, and how many. */
  phone: string;
  orders: number;
  /** A pincode that some sales agent serves. */
  pincode: string;
}

export async function findTargets(persistDir: string): Promise<Targets> {
  const [busiest] = await query<{ phone: string; n: number }>(
    persistDir,
    "SELECT c.phone_key AS phone, COUNT(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id " +
      "WHERE c.phone_key IS NOT NULL GROUP BY o.customer_id ORDER BY n DESC, o.customer_id LIMIT 1",
  );
  const [served] = await query<{ code: string }>(
    persistDir,
    "SELECT p.code AS code FROM postal_codes p JOIN sales_agent_postal_codes s ON s.postal_code_id = p.id ORDER BY p.id LIMIT 1",
  );
  if (!busiest || !served) throw new Error("the imported dataset has no customer with orders or no served pincode");
  return { phone: busiest.phone, orders: busiest.n, pincode: served.code };
}

/** What the bench's creates need: one existing customer's area, postal code and agent, and the numbers in use. */
export interface CreateTemplate {
  areaId: number;
  postalcodeId: number;
  salesagentId: number;
  /** Normalized mobile numbers of the existing customers: a create must not reuse one (409). */
  takenPhones: Set<string>;
}

export async function findCreateTemplate(persistDir: string): Promise<CreateTemplate> {
  const [row] = await query<{ area: number; postal: number; agent: number }>(
    persistDir,
    "SELECT a.area_id AS area, a.postalcode_id AS postal, c.salesagent_id AS agent FROM customers c " +
      "JOIN customer_addresses a ON a.customer_id = c.id WHERE c.salesagent_id IS NOT NULL ORDER BY c.id LIMIT 1",
  );
  if (!row) throw new Error("the imported dataset has no customer with an address and a sales agent");
  const phones = await query<{ phone: string }>(
    persistDir,
    "SELECT phone_key AS phone FROM customers WHERE phone_key IS NOT NULL",
  );
  return {
    areaId: row.area,
    postalcodeId: row.postal,
    salesagentId: row.agent,
    takenPhones: new Set(phones.map((p) => p.phone)),
  };
}
