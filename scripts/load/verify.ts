// The check after the load: no create is lost, and no create wrote anything it did not answer 201
// for. Every customer a 201 named is listed by GET /customers (all pages); every customer listed
// now and not before carries a number that one of our creates sent, and that create's answer was
// 201, or no answer at all (still in flight when the run stopped: written or not, nobody was told).
import { normalizePhone } from "../../src/lib/phone.ts";
import { listAll } from "./catalog.ts";
import type { Tally } from "./mix.ts";

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

export async function checkCreates(base: string, key: string, before: Set<number>, tally: Tally): Promise<CreateCheck> {
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  const listed = (await listAll(get, "/api/customers", "customers")) as { id: number; contactperson_number: string }[];
  const listedIds = new Set(listed.map((c) => c.id));
  const missing = [...tally.createdIds].filter((id) => !listedIds.has(id)).sort((a, b) => a - b);

  const unexplained: string[] = [];
  let written = 0;
  for (const customer of listed) {
    if (before.has(customer.id) || tally.createdIds.has(customer.id)) continue;
    const phone = normalizePhone(customer.contactperson_number);
    if (!tally.createsSent.has(phone)) unexplained.push(`customer ${customer.id} (${phone}): no create of this run sent that number`);
    else if (tally.createsSent.get(phone) === undefined) written++;
    else unexplained.push(`customer ${customer.id} (${phone}): its create was answered ${tally.createsSent.get(phone)}, yet it was written`);
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
