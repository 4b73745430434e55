// The lookups' queries: areas, the sales agents of a pincode, and pages of postal codes and sales agents.
import { and, asc, count, eq, gt, sql, type SQL } from "drizzle-orm";
import { areas, postalCodes, salesAgentPostalCodes, salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import type { Page } from "../platform/paging/pagination.ts";
import {
  AFTER,
  type Compiler,
  compiled,
  limitWithin,
  PAGE,
  pageMode,
  type PageMode,
  pageStatements,
  pageValues,
  runPage,
} from "../platform/db/compiled.ts";
import { keptCount, keptTotal } from "../platform/db/totals.ts";

export function listAreas(db: Database) {
  return db.select({ id: areas.id, name: areas.name, cityId: areas.cityId }).from(areas).orderBy(asc(areas.id));
}

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

/** One code's total is counted in its index (a pincode has one or two records); see docs/specification.md section 4. */
function postalCodesPageQueries(db: Compiler, byCode: boolean, mode: PageMode) {
  const byCodeWhere = byCode ? eq(postalCodes.code, sql.placeholder("code")) : undefined;
  const rowsWhere: SQL | undefined = mode === "seek" ? and(byCodeWhere, gt(postalCodes.id, AFTER.id)) : byCodeWhere;
  const limit = mode === "offset" && !byCode ? limitWithin(keptCount(db, "postal_codes"), PAGE.limit) : PAGE.limit;
  const rows = db
    .select({ id: postalCodes.id, code: postalCodes.code })
    .from(postalCodes)
    .where(rowsWhere)
    .orderBy(asc(postalCodes.id))
    .limit(limit);
  return {
    total: byCode
      ? db.select({ total: count() }).from(postalCodes).where(byCodeWhere).prepare()
      : keptTotal(db, "postal_codes"),
    rows: (mode === "offset" ? rows.offset(PAGE.offset) : rows).prepare(),
  };
}

const postalCodesModes = (byCode: boolean) => ({
  first: compiled((db) => postalCodesPageQueries(db, byCode, "first")),
  offset: compiled((db) => postalCodesPageQueries(db, byCode, "offset")),
  seek: compiled((db) => postalCodesPageQueries(db, byCode, "seek")),
});
const postalCodesPage = { all: postalCodesModes(false), byCode: postalCodesModes(true) };

export function listPostalCodes(db: Database, page: Page, code?: string) {
  const q = (code === undefined ? postalCodesPage.all : postalCodesPage.byCode)[pageMode(page)]();
  return runPage(db, pageStatements(q, { ...pageValues(page), code }));
}

function salesAgentsPageQueries(db: Compiler, mode: PageMode) {
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
    .where(mode === "seek" ? gt(salesAgents.id, AFTER.id) : undefined)
    .orderBy(asc(salesAgents.id))
    .limit(mode === "offset" ? limitWithin(keptCount(db, "sales_agents"), PAGE.limit) : PAGE.limit);
  return {
    total: keptTotal(db, "sales_agents"),
    rows: (mode === "offset" ? rows.offset(PAGE.offset) : rows).prepare(),
  };
}

const salesAgentsPage = {
  first: compiled((db) => salesAgentsPageQueries(db, "first")),
  offset: compiled((db) => salesAgentsPageQueries(db, "offset")),
  seek: compiled((db) => salesAgentsPageQueries(db, "seek")),
};

export function listSalesAgents(db: Database, page: Page) {
  return runPage(db, pageStatements(salesAgentsPage[pageMode(page)](), pageValues(page)));
}
