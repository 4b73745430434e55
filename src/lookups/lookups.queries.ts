// The lookups' queries: areas, the sales agents of a pincode, and pages of postal codes and sales agents.
import { and, asc, count, eq, gt, sql, type SQL } from "drizzle-orm";
import { areas, postalCodes, salesAgentPostalCodes, salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "../platform/db/database.ts";
import type { Page } from "../platform/paging/pagination.ts";
import * as cq from "../platform/db/compiled.ts";
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
function postalCodesPageQueries(db: cq.Compiler, byCode: boolean, mode: cq.PageMode) {
  const byCodeWhere = byCode ? eq(postalCodes.code, sql.placeholder("code")) : undefined;
  const rowsWhere: SQL | undefined = mode === "seek" ? and(byCodeWhere, gt(postalCodes.id, cq.AFTER.id)) : byCodeWhere;
  const limit =
    mode === "offset" && !byCode ? cq.limitWithin(keptCount(db, "postal_codes"), cq.PAGE.limit) : cq.PAGE.limit;
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
    rows: (mode === "offset" ? rows.offset(cq.PAGE.offset) : rows).prepare(),
  };
}

const postalCodesModes = (byCode: boolean) => ({
  first: cq.compiled((db) => postalCodesPageQueries(db, byCode, "first")),
  offset: cq.compiled((db) => postalCodesPageQueries(db, byCode, "offset")),
  seek: cq.compiled((db) => postalCodesPageQueries(db, byCode, "seek")),
});
const postalCodesPage = { all: postalCodesModes(false), byCode: postalCodesModes(true) };

export function listPostalCodes(db: Database, page: Page, code?: string) {
  const q = (code === undefined ? postalCodesPage.all : postalCodesPage.byCode)[cq.pageMode(page)]();
  return cq.runPage(db, cq.pageStatements(q, { ...cq.pageValues(page), code }));
}

function salesAgentsPageQueries(db: cq.Compiler, mode: cq.PageMode) {
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
    .where(mode === "seek" ? gt(salesAgents.id, cq.AFTER.id) : undefined)
    .orderBy(asc(salesAgents.id))
    .limit(mode === "offset" ? cq.limitWithin(keptCount(db, "sales_agents"), cq.PAGE.limit) : cq.PAGE.limit);
  return {
    total: keptTotal(db, "sales_agents"),
    rows: (mode === "offset" ? rows.offset(cq.PAGE.offset) : rows).prepare(),
  };
}

const salesAgentsPage = {
  first: cq.compiled((db) => salesAgentsPageQueries(db, "first")),
  offset: cq.compiled((db) => salesAgentsPageQueries(db, "offset")),
  seek: cq.compiled((db) => salesAgentsPageQueries(db, "seek")),
};

export function listSalesAgents(db: Database, page: Page) {
  return cq.runPage(db, cq.pageStatements(salesAgentsPage[cq.pageMode(page)](), cq.pageValues(page)));
}
