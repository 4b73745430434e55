// What the load mix draws its parameters from, read from the running API itself (so the mix works
// on any dataset), and the check after the load that reads it again: no create is lost, and no
// create wrote anything it did not answer 201 for.
import { normalizePhone } from "../../src/platform/lib/phone.ts";

export interface Catalog {
  /** The ids GET /customers lists before the load. */
  customerIds: Set<number>;
  /** Contact numbers as stored (mixed formats: the API normalizes them). */
  phones: string[];
  pincodes: string[];
  postalcodeIds: number[];
  areaIds: number[];
  salesagentIds: number[];
  /** Normalized numbers of existing customers: a create must not reuse one (that is a 409). */
  takenPhones: Set<string>;
}

type Get = (path: string) => Promise<any>;

function apiGet(base: string, key: string): Get {
  return async (path) => {
    const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
}

/** Every row of a paged listing, following next_page_url. */
async function listAll(get: Get, path: string, member: string): Promise<any[]> {
  const rows: any[] = [];
  for (let next: string | null = `${path}?count=100`; next;) {
    const page = await get(next);
    rows.push(...page.data[member]);
    const url: string | null = page.data.pagination.next_page_url;
    next = url ? url.slice(new URL(url).origin.length) : null;
  }
  return rows;
}

export async function readCatalog(base: string, key: string): Promise<Catalog> {
  const get = apiGet(base, key);
  const customers = await listAll(get, "/api/customers", "customers");
  const postalcodes = await listAll(get, "/api/postalcodes", "postalcodes");
  const salesagents = await listAll(get, "/api/salesagents", "salesagents");
  const areas = (await get("/api/area")).data as { id: number }[];
  const phones = customers.map((c: { contactperson_number: string }) => c.contactperson_number).filter(Boolean);
  const catalog: Catalog = {
    customerIds: new Set(customers.map((c: { id: number }) => c.id)),
    phones,
    pincodes: [...new Set(postalcodes.map((p: { code: string }) => p.code))] as string[],
    postalcodeIds: postalcodes.map((p: { id: number }) => p.id),
    areaIds: areas.map((a) => a.id),
    salesagentIds: salesagents.map((s: { id: number }) => s.id),
    takenPhones: new Set(phones.map(normalizePhone)),
  };
  for (const [name, list] of Object.entries(catalog)) {
    if (Array.isArray(list) && list.length === 0)
      throw new Error(`the dataset has no ${name}: the load mix needs some`);
  }
  return catalog;
}

export interface CreateCheck {
  listedBefore: number;
  listedAfter: number;
  /** Distinct customers that 201s named. */
  created: number;
  /** Customers a 201 named that are not listed. */
  missing: number[];
  /** Creates still in flight when the run stopped, and how many of them were written. */
  cutOff: { sent: number; written: number };
  /** New rows that no 201 explains: a create answered otherwise that wrote, or one we never sent. */
  unexplained: string[];
}

/**
 * Every customer a 201 named is listed by GET /customers (all pages); every customer listed now and
 * not before carries a number that one of our creates sent, and that create's answer was 201, or no
 * answer at all (still in flight when the run stopped: written or not, nobody was told).
 */
export async function checkCreates(
  base: string,
  key: string,
  before: Set<number>,
  tally: { createdIds: Set<number>; createsSent: Map<string, number | undefined> },
): Promise<CreateCheck> {
  const listed = (await listAll(apiGet(base, key), "/api/customers", "customers")) as {
    id: number;
    contactperson_number: string;
  }[];
  const listedIds = new Set(listed.map((c) => c.id));
  const missing = [...tally.createdIds].filter((id) => !listedIds.has(id)).sort((a, b) => a - b);
  const unexplained: string[] = [];
  let written = 0;
  for (const customer of listed) {
    if (before.has(customer.id) || tally.createdIds.has(customer.id)) continue;
    const phone = normalizePhone(customer.contactperson_number);
    if (!tally.createsSent.has(phone))
      unexplained.push(`customer ${customer.id} (${phone}): no create of this run sent that number`);
    else if (tally.createsSent.get(phone) === undefined) written++;
    else
      unexplained.push(
        `customer ${customer.id} (${phone}): its create was answered ${tally.createsSent.get(phone)}, yet it was written`,
      );
  }
  const cutOffSent = [...tally.createsSent.values()].filter((status) => status === undefined).length;
  return {
    listedBefore: before.size,
    listedAfter: listed.length,
    created: tally.createdIds.size,
    missing,
    cutOff: { sent: cutOffSent, written },
    unexplained,
  };
}
