import { asc, count, eq } from "drizzle-orm";
import { areas, postalCodes, salesAgentPostalCodes, salesAgents } from "../../drizzle/schema.ts";
import type { Database } from "../middleware/services.ts";
import type { Page } from "../lib/pagination.ts";

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

/** A page of postal codes by id, optionally one code's records, and the total: one round trip. */
export async function listPostalCodes(db: Database, page: Page, code?: string) {
  const where = code === undefined ? undefined : eq(postalCodes.code, code);
  const [totalRows, rows] = await db.batch([
    db.select({ total: count() }).from(postalCodes).where(where),
    db
      .select({ id: postalCodes.id, code: postalCodes.code })
      .from(postalCodes)
      .where(where)
      .orderBy(asc(postalCodes.id))
      .limit(page.count)
      .offset(page.skip),
  ]);
  return { total: totalRows[0]?.total ?? 0, postalcodes: rows };
}

/** A page of sales agents by id, and the total: one round trip. */
export async function listSalesAgents(db: Database, page: Page) {
  const [totalRows, rows] = await db.batch([
    db.select({ total: count() }).from(salesAgents),
    db
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
      .limit(page.count)
      .offset(page.skip),
  ]);
  return { total: totalRows[0]?.total ?? 0, salesagents: rows };
}
