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
export const HOME_STATE_CODES: ReadonlySet<string> = new Set(GEOGRAPHY.homeStateCodes);

export interface AreaPlace {
  areaId: number;
  name: string;
  cityName: string;
  std: string;
  stateCode: string;
  gstStateCode: string;
  region: Region;
  /** Postal code ids that an address in this area may carry. */
  postalCodeIds: number[];
}

export interface Geography {
  states: StateRecord[];
  cities: CityRecord[];
  areas: AreaRecord[];
  postalCodes: PostalCodeRecord[];
  places: AreaPlace[];
  /** Ids of the postal codes that sales agents divide among themselves, in pincode order. */
  servedPostalCodeIds: number[];
  unservedPostalCodeId: number;
}

/** "Andheri East" -> "AE", "Koramangala" -> "KOR", "Sector 18" -> "S18". */
export function areaCode(name: string): string {
  const words = name.replace(/[.-]/g, " ").split(/\s+/).filter(Boolean);
  if (words.length === 1) return words[0]!.slice(0, 3).toUpperCase();
  return words.map((w) => (/^\d+$/.test(w) ? w : w.charAt(0).toUpperCase())).join("");
}

/**
 * Builds the geography. When the named areas have fewer than `minPostalCodes` pincodes, further
 * real-looking ones (the first three digits of their city's sorting district) make up the number,
 * so that large datasets spread customers and sales agents over more pincodes.
 */
export function buildGeography(rng: Rng, minPostalCodes: number): Geography {
  const geo: Geography = {
    states: [],
    cities: [],
    areas: [],
    postalCodes: [],
    places: [],
    servedPostalCodeIds: [],
    unservedPostalCodeId: 0,
  };
  const postalIdByCode = new Map<string, number>();
  const addPostalCode = (code: string): number => {
    const known = postalIdByCode.get(code);
    if (known !== undefined) return known;
    const id = geo.postalCodes.length + 1;
    geo.postalCodes.push({ id, code });
    postalIdByCode.set(code, id);
    return id;
  };
  const placesByCity: AreaPlace[][] = [];
  const districtPrefixes: string[] = [];

  for (const state of GEOGRAPHY.states) {
    const stateId = geo.states.length + 1;
    geo.states.push({ id: stateId, code: state.code, name: state.name });
    for (const city of state.cities) {
      const cityId = geo.cities.length + 1;
      geo.cities.push({ id: cityId, name: city.name, code: city.code, state_id: stateId });
      const cityPlaces: AreaPlace[] = [];
      for (const [name, pincode] of city.areas) {
        const areaId = geo.areas.length + 1;
        geo.areas.push({ id: areaId, name, area_code: areaCode(name), city_id: cityId });
        const place: AreaPlace = {
          areaId,
          name,
          cityName: city.name,
          std: city.std,
          stateCode: state.code,
          gstStateCode: state.gst,
          region: state.region,
          postalCodeIds: [addPostalCode(pincode)],
        };
        geo.places.push(place);
        cityPlaces.push(place);
      }
      placesByCity.push(cityPlaces);
      districtPrefixes.push(city.areas[0]![1].slice(0, 3));
    }
  }
  geo.unservedPostalCodeId = addPostalCode(UNSERVED_PINCODE);

  const extraPostalCodes = Math.max(0, minPostalCodes - geo.postalCodes.length);
  for (let added = 0; added < extraPostalCodes;) {
    const cityIndex = rng.int(0, placesByCity.length - 1);
    const code = `${districtPrefixes[cityIndex]}${rng.digits(3)}`;
    if (postalIdByCode.has(code) || code === UNSERVED_PINCODE) continue;
    rng.pick(placesByCity[cityIndex]!).postalCodeIds.push(addPostalCode(code));
    added++;
  }

  geo.servedPostalCodeIds = geo.postalCodes
    .filter((p) => p.id !== geo.unservedPostalCodeId)
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((p) => p.id);
  return geo;
}
