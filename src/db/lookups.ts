import { asc, count, eq, sql } from "drizzle-orm";
import { areas, postalCodes, salesAgentPostalCodes, salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "../middleware/services.ts";
import type { Page } from "../lib/pagination.ts";
import { type Compiler, compiled, PAGE, pageStatements, runPage } from "./compiled.ts";

export function listAreas(db: Database) {
  return db.select({ id: areas.id, name: areas.name, city_id: areas.cityId }).from(areas).orderBy(asc(areas.id));
}

/** The sales agents serving a pincode, each once, by id. */
export function salesAgentsByPincode(db: Database, pincode: string) {
  return db
    .selectDistinct({
      id: salesAgents.id,
      first_name: salesAgents.firstName,
      last_name: salesAgents.lastName,
      mobile: salesAgents.mobileNumber,
    })
    .from(postalCodes)
    .innerJoin(salesAgentPostalCodes, eq(salesAgentPostalCodes.postalCodeId, postalCodes.id))
    .innerJoin(salesAgents, eq(salesAgents.id, salesAgentPostalCodes.salesAgentId))
    .where(eq(postalCodes.code, pincode))
    .orderBy(asc(salesAgents.id));
}

function postalCodesPageQueries(db: Compiler, byCode: boolean) {
  const where = byCode ? eq(postalCodes.code, sql.placeholder("code")) : undefined;
  return {
    total: db.select({ total: count() }).from(postalCodes).where(where).prepare(),
    rows: db
      .select({ id: postalCodes.id, code: postalCodes.code })
      .from(postalCodes)
      .where(where)
      .orderBy(asc(postalCodes.id))
      .limit(PAGE.limit)
      .offset(PAGE.offset)
      .prepare(),
  };
}

const postalCodesPage = {
  all: compiled((db) => postalCodesPageQueries(db, false)),
  byCode: compiled((db) => postalCodesPageQueries(db, true)),
};

/** A page of postal codes by id, optionally one code's records, and the total: one round trip. */
export async function listPostalCodes(db: Database, page: Page, code?: string) {
  const q = (code === undefined ? postalCodesPage.all : postalCodesPage.byCode)();
  const { total, rows } = await runPage(db, pageStatements(q, { ...page, code }));
  return { total, postalcodes: rows };
}

const salesAgentsPage = compiled((db) => ({
  total: db.select({ total: count() }).from(salesAgents).prepare(),
  rows: db
    .select({
      id: salesAgents.id,
      first_name: salesAgents.firstName,
      last_name: salesAgents.lastName,
      mobile_number: salesAgents.mobileNumber,
      avatar: salesAgents.avatar,
      email: salesAgents.email,
    })
    .from(salesAgents)
    .orderBy(asc(salesAgents.id))
    .limit(PAGE.limit)
    .offset(PAGE.offset)
    .prepare(),
}));

/** A page of sales agents by id, and the total: one round trip. */
export async function listSalesAgents(db: Database, page: Page) {
  const { total, rows } = await runPage(db, pageStatements(salesAgentsPage(), { ...page }));
  return { total, salesagents: rows };
}
