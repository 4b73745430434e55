// Sales agents (each serving a territory of pincodes, some territories overlapping) and delivery agents.
import type { DeliveryAgentRecord, SalesAgentRecord } from "../../src/import/import.format.ts";
import type { Geography } from "./geography.ts";
import { mobileNumber, personName, REGIONS, type Region, writtenMobile } from "./people.ts";
import { Rng } from "./prng.ts";

/** Agents' numbers come from their own stream of the mobile bijection, apart from customers'. */
const SALES_STREAM = 1;
const DELIVERY_STREAM = 2;

/**
 * Sales agents divide the served pincodes (in pincode order, so a territory is a neighbourhood)
 * into contiguous runs; about a third reach one or two pincodes into the next territory, so those
 * pincodes have two agents. With more agents than pincodes, several agents share each pincode.
 */
export function buildSalesForce(rng: Rng, geo: Geography, count: number) {
  const served = geo.servedPostalCodeIds;
  const regionOf = new Map<number, Region>();
  for (const place of geo.places)
    for (const id of place.postalCodeIds) if (!regionOf.has(id)) regionOf.set(id, place.region);
  const agents: SalesAgentRecord[] = [];
  // The agents serving each postal code id (none for the unserved one).
  const agentsByPostalCode = new Map<number, number[]>();
  for (let a = 0; a < count; a++) {
    const start = Math.floor((a * served.length) / count);
    let end = Math.max(start + 1, Math.floor(((a + 1) * served.length) / count));
    if (rng.chance(0.35)) end = Math.min(served.length, end + rng.int(1, 2));
    const postalcodeIds = served.slice(start, end);
    const id = a + 1;
    const person = personName(rng, regionOf.get(postalcodeIds[0]!) ?? "north");
    agents.push({
      id,
      first_name: person.firstName,
      last_name: person.lastName,
      mobile_number: mobileNumber(a, SALES_STREAM),
      email: rng.chance(0.85) ? `${person.firstName}.${person.lastName}${id}@sales.example.com`.toLowerCase() : null,
      avatar: rng.chance(0.6) ? `https://cdn.example.com/avatars/salesagents/${id}.jpg` : null,
      postalcode_ids: postalcodeIds,
    });
    for (const postalId of postalcodeIds) {
      const list = agentsByPostalCode.get(postalId) ?? [];
      list.push(id);
      agentsByPostalCode.set(postalId, list);
    }
  }
  return { agents, agentsByPostalCode };
}

export function buildDeliveryAgents(rng: Rng, count: number): DeliveryAgentRecord[] {
  const out: DeliveryAgentRecord[] = [];
  for (let d = 0; d < count; d++) {
    const person = personName(rng, rng.pick(REGIONS));
    out.push({
      id: d + 1,
      first_name: person.firstName,
      // Delivery staff are often on the books with an initial for a surname.
      last_name: rng.chance(0.25) ? person.lastName.charAt(0) : person.lastName,
      phone_number: writtenMobile(rng, mobileNumber(d, DELIVERY_STREAM)),
    });
  }
  return out;
}
