// Customers: retailers and wholesalers with their contact person, GST registration and address,
// with the odd records that real data has (no address, null or empty e-mail, numbers written with
// +91 or a trunk 0, no sales agent, Inactive or pending accounts).
import { gstinCheckCharacter } from "../../src/platform/lib/gstin.ts";
import type { CustomerRecord } from "../../src/import/import.format.ts";
import type { AreaPlace, Geography } from "./geography.ts";
import * as people from "./people.ts";
import { Rng } from "./prng.ts";

/** What the order generator needs to know about each customer (index = id - 1). */
export interface CustomerFacts {
  salesAgentId: Int32Array;
  /** 1 when the customer's state is one where the distributor is registered (CGST + SGST). */
  intraState: Uint8Array;
}

const BUILDINGS = [
  "Sai Krupa Complex",
  "Shanti Niketan",
  "Laxmi Plaza",
  "Ganesh Bhavan",
  "Krishna Towers",
  "Market Yard",
  "Main Bazaar",
  "Gandhi Market",
  "Nehru Shopping Centre",
  "Patel Chambers",
  "Sunrise Arcade",
  "Anand Apartments",
  "Royal Complex",
  "Trade Centre",
  "Wholesale Market",
];
const ROADS = [
  "Station Road",
  "MG Road",
  "Gandhi Chowk",
  "Main Road",
  "Ring Road",
  "Temple Street",
  "Bazaar Road",
  "Court Road",
  "Mill Road",
  "Subhash Marg",
];
const LANDMARKS = [
  "Railway Station",
  "Bus Stand",
  "City Hospital",
  "SBI Branch",
  "Hanuman Mandir",
  "Post Office",
  "Municipal School",
  "Water Tank",
  "Petrol Pump",
  "Vegetable Market",
];

function addressLines(rng: Rng, place: AreaPlace): [string, string] {
  const n = rng.int(1, 250);
  const line1 = rng.pick([
    `Shop No. ${n}, ${rng.pick(BUILDINGS)}`,
    `${n}, ${rng.pick(BUILDINGS)}, ${rng.pick(ROADS)}`,
    `Plot No. ${n}, ${rng.pick(ROADS)}`,
    `Gala No. ${n}, ${rng.pick(BUILDINGS)}`,
    `Door No. ${n}/${rng.int(1, 40)}, ${rng.pick(ROADS)}`,
    `${n}/${rng.int(1, 12)}, ${place.name} ${rng.pick(ROADS)}`,
  ]);
  const line2 = rng.weighted(
    [`Near ${rng.pick(LANDMARKS)}`, `Opp. ${rng.pick(LANDMARKS)}`, place.name, ""],
    [45, 15, 10, 30],
  );
  return [line1, line2];
}

function gstin(rng: Rng, place: AreaPlace, company: people.Company, owner: people.Person): string {
  const holderInitial = (company.panEntity === "P" ? owner.lastName : company.name).charAt(0).toUpperCase();
  const pan = `${rng.letters(3)}${company.panEntity}${holderInitial}${rng.digits(4)}${rng.letters(1)}`;
  const first14 = `${place.gstStateCode}${pan}${rng.chance(0.9) ? "1" : "2"}Z`;
  return `${first14}${gstinCheckCharacter(first14)}`;
}

/**
 * Yields customers 1..count. The first five carry the odd cases for sure (so that a small dataset
 * has them too): #1 "+91 98200 00001", #2 a trunk-0 number, #3 no address, #4 null e-mail,
 * #5 empty e-mail.
 */
export function* generateCustomers(
  rng: Rng,
  geo: Geography,
  agentsByPostalCode: Map<number, number[]>,
  count: number,
  facts: CustomerFacts,
): Generator<CustomerRecord> {
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const place = rng.pick(geo.places);
    const postalcodeId = rng.pick(place.postalCodeIds);
    const owner = people.personName(rng, place.region);
    const contact = `${owner.firstName} ${owner.lastName}`;
    const company = people.companyName(rng, owner, place.cityName);
    const digits = people.mobileNumber(i);
    const number =
      i < 2 ? people.writeMobile(i === 0 ? "spaced+91" : "trunk0", digits) : people.writtenMobile(rng, digits);
    const registered = rng.chance(0.7);
    const serving = agentsByPostalCode.get(postalcodeId) ?? [];
    const salesagentId = serving.length > 0 && rng.chance(0.96) ? rng.pick(serving) : null;
    const hasAddress = i !== 2 && rng.chance(0.95);
    const [line1, line2] = addressLines(rng, place);
    const email =
      i === 3
        ? null
        : i === 4
          ? ""
          : rng.weighted<() => string | null>(
              [() => people.personalEmail(rng, owner), () => people.companyEmail(rng, company), () => "", () => null],
              [58, 17, 15, 10],
            )();

    facts.salesAgentId[i] = salesagentId ?? 0;
    facts.intraState[i] = place.intraState ? 1 : 0;

    yield {
      id,
      contact_person_name: contact,
      company_name: company.name,
      display_name: rng.weighted([company.name, `${company.name} - ${place.name}`, contact], [85, 10, 5]),
      email,
      contactperson_number: number,
      company_phone: rng.weighted<() => string | null>(
        [() => null, () => people.landline(rng, place.std), () => people.mobileNumber(i, 3)],
        [65, 25, 10],
      )(),
      gst_treatment: registered ? "Registered" : "Unregistered",
      gstin: registered ? gstin(rng, place, company, owner) : rng.chance(0.9) ? "" : null,
      customer_code: rng.chance(0.45) ? `CUS-${String(id).padStart(5, "0")}` : null,
      status: rng.chance(0.92) ? "Active" : "Inactive",
      approval: rng.weighted(["accepted", "pending", "rejected"] as const, [85, 10, 5]),
      salesagent_id: salesagentId,
      address: hasAddress
        ? { addressline1: line1, addressline2: line2, area_id: place.areaId, postalcode_id: postalcodeId }
        : null,
    };
  }
}
