// The lookups' queries: areas, the sales agents of a pincode, and pages of postal codes and sales
// agents. They return rows; the routes shape the answers.
import { and, asc, count, eq, gt, sql, type SQL } from "drizzle-orm";
import { areas, postalCodes, salesAgentPostalCodes, salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "./database.ts";
import type { Page } from "../lib/pagination.ts";
import { AFTER, type Compiler, compiled, PAGE, pageStatements, pageValues, runPage } from "./compiled.ts";
import { keptTotal } from "./totals.ts";

export function listAreas(db: Database) {
  return db.select({ id: areas.id, name: areas.name, cityId: areas.cityId }).from(areas).orderBy(asc(areas.id));
}

/** The sales agents serving a pincode, each once, by id. */
export function salesAgentsByPincode(db: Database, pincode: string) {
  return db
    .selectDistinct({
      id: salesAgents.id,
      firstName: salesAgents.firstName,
      lastName: salesAgents.lastName,
      mobileNumber: salesAgents.mobileNumber,
    })
    .from(postalCodes)
    .innerJoin(salesAgentPostalCodes, eq(salesAgentPostalCodes.postalCodeId, postalCodes.id))
    .innerJoin(salesAgents, eq(salesAgents.id, salesAgentPostalCodes.salesAgentId))
    .where(eq(postalCodes.code, pincode))
    .orderBy(asc(salesAgents.id));
}

/**
 * A page by offset or (seek) right after a cursor's id. One code's total is counted from its index
 * entries (a pincode has one or two records); the whole table's comes from row_counts.
 */
function postalCodesPageQueries(db: Compiler, byCode: boolean, seek: boolean) {
  const byCodeWhere = byCode ? eq(postalCodes.code, sql.placeholder("code")) : undefined;
  const rowsWhere: SQL | undefined = seek ? and(byCodeWhere, gt(postalCodes.id, AFTER.id)) : byCodeWhere;
  const rows = db.select({ id: postalCodes.id, code: postalCodes.code }).from(postalCodes).where(rowsWhere).orderBy(asc(postalCodes.id)).limit(PAGE.limit);
  return {
    total: byCode ? db.select({ total: count() }).from(postalCodes).where(byCodeWhere).prepare() : keptTotal(db, "postal_codes"),
    rows: (seek ? rows : rows.offset(PAGE.offset)).prepare(),
  };
}

const postalCodesPage = {
  all: compiled((db) => postalCodesPageQueries(db, false, false)),
  allSeek: compiled((db) => postalCodesPageQueries(db, false, true)),
  byCode: compiled((db) => postalCodesPageQueries(db, true, false)),
  byCodeSeek: compiled((db) => postalCodesPageQueries(db, true, true)),
};

/** A page of postal codes (rows) by id, optionally one code's records, and the total: one round trip. */
export function listPostalCodes(db: Database, page: Page, code?: string) {
  const seek = page.after !== undefined;
  const q = (code === undefined ? (seek ? postalCodesPage.allSeek : postalCodesPage.all) : seek ? postalCodesPage.byCodeSeek : postalCodesPage.byCode)();
  return runPage(db, pageStatements(q, { ...pageValues(page), code }));
}

function salesAgentsPageQueries(db: Compiler, seek: boolean) {
  const rows = db
    .select({
      id: salesAgents.id,
      firstName: salesAgents.firstName,
      lastName: salesAgents.lastName,
      mobileNumber: salesAgents.mobileNumber,
      avatar: salesAgents.avatar,
      email: salesAgents.email,
    })
    .from(salesAgents)
    .where(seek ? gt(salesAgents.id, AFTER.id) : undefined)
    .orderBy(asc(salesAgents.id))
    .limit(PAGE.limit);
  return { total: keptTotal(db, "sales_agents"), rows: (seek ? rows : rows.offset(PAGE.offset)).prepare() };
}

const salesAgentsPage = {
  offset: compiled((db) => salesAgentsPageQueries(db, false)),
  seek: compiled((db) => salesAgentsPageQueries(db, true)),
};

/** A page of sales agents (rows) by id (by offset, or right after a cursor's id), and the total: one round trip. */
export function listSalesAgents(db: Database, page: Page) {
  const q = (page.after ? salesAgentsPage.seek : salesAgentsPage.offset)();
  return runPage(db, pageStatements(q, pageValues(page)));
}
