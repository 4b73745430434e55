// What the load mix draws its parameters from: real phone numbers, pincodes and ids, read from the
// running API itself (so the mix works on any dataset), and the normalized numbers already taken.
import { normalizePhone } from "../../src/lib/phone.ts";
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

export async function readCatalog(base: string, key: string): Promise<Catalog> {
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as any;
  };
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
    if (Array.isArray(list) && list.length === 0) throw new Error(`the dataset has no ${name}: the load mix needs some`);
  }
  return catalog;
}

/** Every row of a paged listing, following next_page_url. */
export async function listAll(get: (path: string) => Promise<any>, path: string, member: string): Promise<any[]> {
  const rows: any[] = [];
  let next: string | null = `${path}?count=100`;
  while (next) {
    const page = await get(next);
    rows.push(...page.data[member]);
    const url: string | null = page.data.pagination.next_page_url;
    next = url ? url.slice(new URL(url).origin.length) : null;
  }
  return rows;
}
