// The geography records (states, cities, areas, postal codes) and what the rest of the generator
// needs to know about them: which pincodes an address in each area may carry, and in which state.
import type { AreaRecord, CityRecord, PostalCodeRecord, StateRecord } from "../../src/import/import.format.ts";
import data from "./geography.json" with { type: "json" };
import type { Region } from "./people.ts";
import { Rng } from "./prng.ts";

/**
 * geography.json: real states with their GST state codes (`gst`, the two digits that open a GSTIN),
 * cities with their STD (landline trunk) codes, and areas with the pincode of each; several areas
 * may share one, as they do in life (Hinjewadi and Wakad: 411057). `unservedPincode` is a real
 * pincode that no area uses and no sales agent serves (the pincode lookup's "none serves it" case);
 * `homeStateCodes` are the states where the distributor holds a GST registration, so that sales
 * there are intra-state (CGST + SGST).
 */
const GEOGRAPHY = data as {
  states: {
    name: string;
    code: string;
    gst: string;
    region: Region;
    cities: { name: string; code: string; std: string; areas: [name: string, pincode: string][] }[];
  }[];
  unservedPincode: string;
  homeStateCodes: string[];
};
const UNSERVED_PINCODE = GEOGRAPHY.unservedPincode;
const HOME_STATE_CODES = new Set(GEOGRAPHY.homeStateCodes);

export interface AreaPlace {
  areaId: number;
  name: string;
  cityName: string;
  std: string;
  gstStateCode: string;
  /** In a state where the distributor is registered for GST: its sales there are intra-state. */
  intraState: boolean;
  region: Region;
  /** Postal code ids that an address in this area may carry. */
  postalCodeIds: number[];
}

export type Geography = ReturnType<typeof buildGeography>;

/** "Andheri East" -> "AE", "Koramangala" -> "KOR", "Sector 18" -> "S18". */
function areaCode(name: string): string {
  const words = name.replace(/[.-]/g, " ").split(/\s+/).filter(Boolean);
  if (words.length === 1) return words[0]!.slice(0, 3).toUpperCase();
  return words.map((w) => (/^\d+$/.test(w) ? w : w.charAt(0).toUpperCase())).join("");
}

/**
 * Builds the geography. When the named areas have fewer than `minPostalCodes` pincodes, further
 * real-looking ones (the first three digits of their city's sorting district) make up the number,
 * so that large datasets spread customers and sales agents over more pincodes.
 */
export function buildGeography(rng: Rng, minPostalCodes: number) {
  const states: StateRecord[] = [];
  const cities: CityRecord[] = [];
  const areas: AreaRecord[] = [];
  const postalCodes: PostalCodeRecord[] = [];
  const places: AreaPlace[] = [];
  const postalIdByCode = new Map<string, number>();
  const addPostalCode = (code: string): number => {
    const known = postalIdByCode.get(code);
    if (known !== undefined) return known;
    const id = postalCodes.length + 1;
    postalCodes.push({ id, code });
    postalIdByCode.set(code, id);
    return id;
  };
  const placesByCity: AreaPlace[][] = [];
  const districtPrefixes: string[] = [];

  for (const state of GEOGRAPHY.states) {
    const stateId = states.length + 1;
    states.push({ id: stateId, code: state.code, name: state.name });
    for (const city of state.cities) {
      const cityId = cities.length + 1;
      cities.push({ id: cityId, name: city.name, code: city.code, state_id: stateId });
      const cityPlaces: AreaPlace[] = [];
      for (const [name, pincode] of city.areas) {
        const areaId = areas.length + 1;
        areas.push({ id: areaId, name, area_code: areaCode(name), city_id: cityId });
        const place: AreaPlace = {
          areaId,
          name,
          cityName: city.name,
          std: city.std,
          gstStateCode: state.gst,
          intraState: HOME_STATE_CODES.has(state.code),
          region: state.region,
          postalCodeIds: [addPostalCode(pincode)],
        };
        places.push(place);
        cityPlaces.push(place);
      }
      placesByCity.push(cityPlaces);
      districtPrefixes.push(city.areas[0]![1].slice(0, 3));
    }
  }
  addPostalCode(UNSERVED_PINCODE);

  const extraPostalCodes = Math.max(0, minPostalCodes - postalCodes.length);
  for (let added = 0; added < extraPostalCodes;) {
    const cityIndex = rng.int(0, placesByCity.length - 1);
    const code = `${districtPrefixes[cityIndex]}${rng.digits(3)}`;
    if (postalIdByCode.has(code) || code === UNSERVED_PINCODE) continue;
    rng.pick(placesByCity[cityIndex]!).postalCodeIds.push(addPostalCode(code));
    added++;
  }

  // The postal codes that sales agents divide among themselves, in pincode order.
  const servedPostalCodeIds = postalCodes
    .filter((p) => p.code !== UNSERVED_PINCODE)
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((p) => p.id);
  return { states, cities, areas, postalCodes, places, servedPostalCodeIds };
}
